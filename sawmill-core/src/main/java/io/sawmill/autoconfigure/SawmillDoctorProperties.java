/*
 * Copyright 2026 the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.sawmill.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.sawmill.doctor.internal.DoctorConfig;

/**
 * The doctor (docs/operations.md#doctor-findings): the report at start-up, at
 * /actuator/sawmill and from the doctor command.
 */
public class SawmillDoctorProperties {

	/**
	 * Whether the doctor runs: its start-up log lines and the sawmill endpoint's report.
	 */
	private boolean enabled = true;

	/**
	 * Whether start-up logs one INFO line per finding that is not OK, and a summary line.
	 */
	private boolean startupLog = true;

	/**
	 * This pod's zone, e.g. eu-west-1a (the chart sets SAWMILL_DOCTOR_ZONE with
	 * rackAwareness.enabled).
	 */
	private @Nullable String zone;

	/** The zone of the Redis master(s); overrides redis-zone-pattern. */
	private @Nullable String redisZone;

	/**
	 * A regular expression whose first group is the zone in a Redis master's host name,
	 * e.g. 'redis-([a-z0-9-]+)\.' .
	 */
	private @Nullable String redisZonePattern;

	/**
	 * Instances of the service consuming the topics (the chart sets
	 * SAWMILL_DOCTOR_REPLICAS when autoscaling is off).
	 */
	private @Nullable Integer replicas;

	/** The directory under which proc/ and sys/ are read; '/' except in tests. */
	private String hostRoot = DoctorConfig.DEFAULT_HOST_ROOT.toString();

	/** PINGs to each Redis master per examination; the finding reports their median. */
	private int pings = DoctorConfig.DEFAULT_PINGS;

	/** How long the Redis and the Kafka part of an examination may take each. */
	private Duration timeout = DoctorConfig.DEFAULT_TIMEOUT;

	/**
	 * Whether this run of the application is the doctor command: Sawmill's data path and
	 * the web server stay off, the report is printed and the application exits with 0 (no
	 * FAIL finding), 1 (a FAIL finding) or 2 (the doctor could not run).
	 */
	private boolean command;

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isStartupLog() {
		return startupLog;
	}

	public void setStartupLog(boolean startupLog) {
		this.startupLog = startupLog;
	}

	public @Nullable String getZone() {
		return zone;
	}

	public void setZone(@Nullable String zone) {
		this.zone = zone;
	}

	public @Nullable String getRedisZone() {
		return redisZone;
	}

	public void setRedisZone(@Nullable String redisZone) {
		this.redisZone = redisZone;
	}

	public @Nullable String getRedisZonePattern() {
		return redisZonePattern;
	}

	public void setRedisZonePattern(@Nullable String redisZonePattern) {
		this.redisZonePattern = redisZonePattern;
	}

	public @Nullable Integer getReplicas() {
		return replicas;
	}

	public void setReplicas(@Nullable Integer replicas) {
		this.replicas = replicas;
	}

	public String getHostRoot() {
		return hostRoot;
	}

	public void setHostRoot(String hostRoot) {
		this.hostRoot = hostRoot;
	}

	public int getPings() {
		return pings;
	}

	public void setPings(int pings) {
		this.pings = pings;
	}

	public Duration getTimeout() {
		return timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public boolean isCommand() {
		return command;
	}

	public void setCommand(boolean command) {
		this.command = command;
	}

}
