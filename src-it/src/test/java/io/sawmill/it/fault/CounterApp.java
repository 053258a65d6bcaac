package io.sawmill.it.fault;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;

import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;

/**
 * A user's application with a non-idempotent mapper: every record {@code INCR}s
 * {@code counter:<record key>}, so a counter says how often Redis applied its key's records. Run as
 * its own JVM by {@link ExactlyOnceIT} ({@link SawmillProcess#startMain}); nothing but Boot's
 * auto-configuration and the mapper.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class CounterApp {

	@Bean
	RecordMapper counterMapper() {
		return record -> List.of(RedisWrite.command("INCR",
				("counter:" + new String(record.key(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
	}

	public static void main(String[] args) {
		new SpringApplicationBuilder(CounterApp.class).bannerMode(Banner.Mode.OFF)
			.web(WebApplicationType.NONE)
			.run(args);
	}
}
