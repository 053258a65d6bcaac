package io.sawmill.testkit;

/**
 * A real single-node Kafka broker of the test kit on loopback, in this JVM ({@link KafkaTestBroker})
 * or in one of its own ({@link KafkaBrokerProcess}).
 */
public interface LocalKafkaBroker extends AutoCloseable {

	String bootstrapServers();

	/** Creates the topic with replication factor 1 and returns this broker. */
	LocalKafkaBroker createTopic(String name, int partitions);

	/** Stops the broker. */
	@Override
	void close();
}
