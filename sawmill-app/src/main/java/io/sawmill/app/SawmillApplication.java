package io.sawmill.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The deployable Sawmill service: everything is configured by {@code sawmill.*},
 * {@code spring.kafka.*} and {@code spring.data.redis.*} properties (see README.md).
 */
@SpringBootApplication
public class SawmillApplication {

	public static void main(String[] args) {
		SpringApplication.run(SawmillApplication.class, args);
	}
}
