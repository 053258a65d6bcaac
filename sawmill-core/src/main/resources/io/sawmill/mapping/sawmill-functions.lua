#!lua name=sawmill

-- Sawmill's version-guarded writes (io.sawmill.mapping.VersionGuard). Each function touches one key,
-- so it runs on standalone, Sentinel and Cluster alike. The key's version is kept in the hash field
-- __sawmill_version as a non-negative decimal integer without leading zeros; versions compare by
-- length, then digit by digit, which is exact for every 64-bit value (Lua numbers are doubles).
-- Reply: 1 when the write was applied, 0 when the key holds a newer version (stale: nothing changed).

local VERSION = '__sawmill_version'

local function valid(version)
  return type(version) == 'string' and string.match(version, '^%d+$') ~= nil
      and (version == '0' or string.sub(version, 1, 1) ~= '0')
end

-- whether version a is lower than version b
local function lower(a, b)
  if #a ~= #b then
    return #a < #b
  end
  return a < b
end

-- the version the key holds, or nil (no key, or a hash written without a version)
local function stored(key)
  local current = redis.call('HGET', key, VERSION)
  if current == false or not valid(current) then
    return nil
  end
  return current
end

-- sawmill_upsert key version ttlMillis field value [field value ...]
-- Sets the fields (HSET: other fields are kept) and the version, then the TTL (0: the TTL is left as
-- it is). Over a tombstone marker (a hash holding only the version) the marker is replaced.
local function upsert(keys, args)
  local key, version, ttl = keys[1], args[1], tonumber(args[2])
  if not valid(version) then
    return redis.error_reply('ERR sawmill_upsert: version must be a non-negative integer, but was ' .. tostring(version))
  end
  if ttl == nil or ttl < 0 or #args < 4 or #args % 2 ~= 0 then
    return redis.error_reply('ERR sawmill_upsert: expects version, ttl millis and field value pairs')
  end
  local current = stored(key)
  if current ~= nil and lower(version, current) then
    return 0
  end
  if current ~= nil and redis.call('HLEN', key) == 1 then
    redis.call('DEL', key) -- a tombstone marker: its retention TTL must not carry over
  end
  local fields = { VERSION, version }
  for i = 3, #args do
    fields[#fields + 1] = args[i]
  end
  redis.call('HSET', key, unpack(fields))
  if ttl > 0 then
    redis.call('PEXPIRE', key, ttl)
  end
  return 1
end

-- sawmill_delete key version retentionMillis
-- Deletes the key and, with a retention above 0, leaves a tombstone marker: a hash holding only the
-- version field, which expires after the retention, so that an older record arriving late is stale.
local function delete(keys, args)
  local key, version, retention = keys[1], args[1], tonumber(args[2])
  if not valid(version) then
    return redis.error_reply('ERR sawmill_delete: version must be a non-negative integer, but was ' .. tostring(version))
  end
  if retention == nil or retention < 0 then
    return redis.error_reply('ERR sawmill_delete: expects version and retention millis')
  end
  local current = stored(key)
  if current ~= nil and lower(version, current) then
    return 0
  end
  redis.call('DEL', key)
  if retention > 0 then
    redis.call('HSET', key, VERSION, version)
    redis.call('PEXPIRE', key, retention)
  end
  return 1
end

redis.register_function('sawmill_upsert', upsert)
redis.register_function('sawmill_delete', delete)
