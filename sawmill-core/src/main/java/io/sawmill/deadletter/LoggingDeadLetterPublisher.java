package io.sawmill.deadletter;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.metrics.RecordOutcome;

/** The dead-letter topic is off: each dead letter is logged with its reason and counted. */
final class LoggingDeadLetterPublisher implements DeadLetterPublisher {

	private static final Logger log = LoggerFactory.getLogger(LoggingDeadLetterPublisher.class);

	@Override
	public void publish(List<DeadLetter> deadLetters) {
		for (DeadLetter deadLetter : deadLetters) {
			log.error("Record {}-{}@{} not written and not dead-lettered (sawmill.dead-letter.enabled=false): {}",
					deadLetter.record().topic(), deadLetter.record().partition(), deadLetter.record().offset(),
					deadLetter.reason());
		}
	}

	@Override
	public RecordOutcome outcome() {
		return RecordOutcome.INVALID;
	}
}
