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
			System.exit(DoctorCommand.run(SawmillApplication.class, Arrays.copyOfRange(args, 1, args.length), System.out));
		}
		SpringApplication.run(SawmillApplication.class, args);
	}
}
