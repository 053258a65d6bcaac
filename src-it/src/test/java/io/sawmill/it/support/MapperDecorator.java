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
package io.sawmill.it.support;

import java.util.function.UnaryOperator;

import org.springframework.beans.factory.config.BeanPostProcessor;

import io.sawmill.mapping.RecordMapper;

/**
 * Changes what the service's mapper does, as a test's stand-in for a user's mapper: the
 * {@link RecordMapper} bean Sawmill configured, decorated. Register the returned
 * post-processor from a {@code static @Bean} method.
 */
public final class MapperDecorator {

	private MapperDecorator() {
	}

	/** Replaces the {@link RecordMapper} bean with {@code decorate} applied to it. */
	public static BeanPostProcessor decorating(UnaryOperator<RecordMapper> decorate) {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String name) {
				return bean instanceof RecordMapper mapper ? decorate.apply(mapper) : bean;
			}
		};
	}

}
