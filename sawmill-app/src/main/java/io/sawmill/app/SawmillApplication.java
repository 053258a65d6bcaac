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

/**
 * The deployable Sawmill service: everything is configured by {@code sawmill.*},
 * {@code spring.kafka.*} and {@code spring.data.redis.*} properties (see README.md).
 * {@code doctor} as the first argument prints the doctor's report instead and exits
 * (docs/operations.md#doctor-findings).
 */
@SpringBootApplication
public class SawmillApplication {

	public static void main(String[] args) {
		if (args.length > 0 && DoctorCommand.NAME.equals(args[0])) {
			System.exit(
					DoctorCommand.run(SawmillApplication.class, Arrays.copyOfRange(args, 1, args.length), System.out));
		}
		SpringApplication.run(SawmillApplication.class, args);
	}

}
