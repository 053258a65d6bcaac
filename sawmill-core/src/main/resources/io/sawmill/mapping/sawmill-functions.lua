#!lua name=sawmill

-- Sawmill's version-guarded writes (io.sawmill.mapping.VersionGuard). Each function touches one key,
-- so it runs on standalone, Sentinel and Cluster alike. The key's version is kept in the hash field
-- __sawmill_version as a non-negative decimal integer without leading zeros; versions compare by
-- length, then digit by digit, which is exact for every 64-bit value (Lua numbers are doubles).
-- Reply: 1 when the write was applied, 0 when the key holds a newer version (stale: nothing changed).

local VERSION = '__sawmill_version'

-- whether s is a non-negative decimal integer without leading zeros (versions, TTLs and retentions)
local function valid(s)
  return type(s) == 'string' and string.match(s, '^%d+$') ~= nil
      and (s == '0' or string.sub(s, 1, 1) ~= '0')
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

-- upsert of key with version args[at], TTL millis args[at + 1] and the field value pairs
-- args[at + 2 .. last]: sets the fields (HSET: other fields are kept) and the version, then the TTL
-- (0: the TTL is left as it is). The TTL goes to PEXPIRE as the string it came as: a Lua number would
-- be formatted back to a string by Redis, at a cost per record. Over a tombstone marker (a hash holding only the version) with no
-- TTL of its own the marker is deleted first, so that its retention does not carry over.
local function upsert_at(key, args, at, last)
  local version, ttl = args[at], args[at + 1]
  if not valid(version) then
    return redis.error_reply('ERR sawmill_upsert: version must be a non-negative integer, but was ' .. tostring(version))
  end
  if not valid(ttl) or last - at < 3 or (last - at) % 2 ~= 1 then
    return redis.error_reply('ERR sawmill_upsert: expects version, ttl millis and field value pairs')
  end
  local current = stored(key)
  if current ~= nil then
    if lower(version, current) then
      return 0
    end
    if ttl == '0' and redis.call('HLEN', key) == 1 then
      redis.call('DEL', key) -- a tombstone marker: its retention TTL must not carry over
    end
  end
  redis.call('HSET', key, VERSION, version, unpack(args, at + 2, last))
  if ttl ~= '0' then
    redis.call('PEXPIRE', key, ttl)
  end
  return 1
end

-- delete of key with version args[at] and retention millis args[at + 1]: deletes the key and, with a
-- retention above 0, leaves a tombstone marker: a hash holding only the version field, which expires
-- after the retention, so that an older record arriving late is stale.
local function delete_at(key, args, at, last)
  local version, retention = args[at], args[at + 1]
  if not valid(version) then
    return redis.error_reply('ERR sawmill_delete: version must be a non-negative integer, but was ' .. tostring(version))
  end
  if not valid(retention) or last ~= at + 1 then
    return redis.error_reply('ERR sawmill_delete: expects version and retention millis')
  end
  local current = stored(key)
  if current ~= nil and lower(version, current) then
    return 0
  end
  redis.call('DEL', key)
  if retention ~= '0' then
    redis.call('HSET', key, VERSION, version)
    redis.call('PEXPIRE', key, retention)
  end
  return 1
end

-- sawmill_upsert key version ttlMillis field value [field value ...]
local function upsert(keys, args)
  return upsert_at(keys[1], args, 1, #args)
end

-- sawmill_delete key version retentionMillis
local function delete(keys, args)
  return delete_at(keys[1], args, 1, #args)
end

-- sawmill_apply key [key ...] then, per key in turn, its operation ('u' upsert, 'd' delete), the
-- number of its arguments and those arguments (as sawmill_upsert's or sawmill_delete's).
-- Applies each in order, as that many calls would, at a fraction of their cost. One key's error does
-- not stop the others: its reply element is the error message, a string; the others' are 1 or 0.
local function apply(keys, args)
  local replies = {}
  local at = 1
  for i = 1, #keys do
    local op, count = args[at], tonumber(args[at + 1])
    if (op ~= 'u' and op ~= 'd') or count == nil or count < 0 or at + 1 + count > #args then
      return redis.error_reply('ERR sawmill_apply: expects an operation (u or d), an argument count and the arguments for each key')
    end
    local ok, reply = pcall(op == 'u' and upsert_at or delete_at, keys[i], args, at + 2, at + 1 + count)
    if not ok then
      reply = type(reply) == 'table' and reply.err or tostring(reply)
    elseif type(reply) == 'table' then
      reply = reply.err
    end
    replies[i] = reply
    at = at + 2 + count
  end
  if at ~= #args + 1 then
    return redis.error_reply('ERR sawmill_apply: ' .. (#args + 1 - at) .. ' arguments left after the last key')
  end
  return replies
end

redis.register_function('sawmill_upsert', upsert)
redis.register_function('sawmill_delete', delete)
redis.register_function('sawmill_apply', apply)
