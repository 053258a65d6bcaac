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
package io.sawmill.app;

import java.util.Arrays;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.autoconfigure.metrics.DataRepositoryMetricsAutoConfiguration;
import org.springframework.boot.data.autoconfigure.web.DataWebAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ScheduledTasksObservationAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.PersistenceExceptionTranslationAutoConfiguration;
import org.springframework.boot.servlet.autoconfigure.MultipartAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration;

/**
 * The deployable Sawmill service: everything is configured by {@code sawmill.*},
 * {@code spring.kafka.*} and {@code spring.data.redis.*} properties (see README.md).
 * {@code doctor} as the first argument prints the doctor's report instead and exits
 * (docs/operations.md#doctor-findings).
 * <p>
 * The auto-configurations the starters bring and the service never uses are excluded, so
 * that start-up neither evaluates nor builds them: aspects, Spring Data repositories and
 * their metrics and web support, the reactive Redis template, transactions (Sawmill's
 * Redis transactions are its own), persistence exception translation, multipart uploads
 * and {@code @Scheduled} observations.
 */
@SpringBootApplication(exclude = { AopAutoConfiguration.class, DataRedisRepositoriesAutoConfiguration.class,
		DataRepositoryMetricsAutoConfiguration.class, DataWebAutoConfiguration.class,
		DataRedisReactiveAutoConfiguration.class, TransactionAutoConfiguration.class,
		TransactionManagerCustomizationAutoConfiguration.class, PersistenceExceptionTranslationAutoConfiguration.class,
		MultipartAutoConfiguration.class, ScheduledTasksObservationAutoConfiguration.class })
public class SawmillApplication {

	public static void main(String[] args) {
		if (args.length > 0 && DoctorCommand.NAME.equals(args[0])) {
			System.exit(
					DoctorCommand.run(SawmillApplication.class, Arrays.copyOfRange(args, 1, args.length), System.out));
		}
		SpringApplication.run(SawmillApplication.class, args);
	}

}
