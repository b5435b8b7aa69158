package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.protocol.WireMessage;

/** The properties a dead letter carries, and what it keeps of the message. */
class DeadLetterStampTest {
    private static final WireMessage SENT = new WireMessage(
            "ID:1",
            1000L,
            "corr",
            null,
            "q:orders?partitions=8",
            "type",
            WireMessage.PERSISTENT,
            7,
            0L,
            0L,
            Map.of("JMSXGroupID", "m-001", "JMSXUserID", "alice", "seq", 3),
            WireMessage.BODY_TEXT,
            "poison".getBytes(StandardCharsets.UTF_8));

    @Test
    void theCopyNamesItsQueueItsDeliveriesWhyAndWhen() {
        WireMessage dead =
                DeadLetterStamp.attemptsReached("orders", 10, 10, 123_456L).applyTo(SENT);
        assertEquals("orders", dead.property("JMS_PARTITA_OriginalDestination"));
        assertEquals(10, dead.property("JMS_PARTITA_DeliveryCount"));
        assertEquals("maxDeliveryAttempts 10 reached", dead.property("JMS_PARTITA_DeadLetterReason"));
        assertEquals(123_456L, dead.property("JMS_PARTITA_DeadLetteredAt"));
        assertEquals(
                "expired",
                DeadLetterStamp.expired("orders", 0, 1L).applyTo(SENT).property("JMS_PARTITA_DeadLetterReason"));
    }

    @Test
    void headersPropertiesAndBodyAreKept() {
        WireMessage dead = DeadLetterStamp.attemptsReached("orders", 3, 3, 1L).applyTo(SENT);
        assertEquals(SENT.messageId(), dead.messageId());
        assertEquals(SENT.destination(), dead.destination(), "JMSDestination still names what the producer sent to");
        assertEquals(SENT.priority(), dead.priority());
        assertEquals(SENT.correlationId(), dead.correlationId());
        assertEquals("m-001", dead.property("JMSXGroupID"));
        assertEquals("alice", dead.property("JMSXUserID"));
        assertEquals(3, dead.property("seq"));
        assertArrayEquals(SENT.body(), dead.body());
        assertEquals(SENT.properties().size() + 4, dead.properties().size());
    }

    @Test
    void aMessageDeadLetteredAgainCarriesTheLatestStamp() {
        WireMessage once = DeadLetterStamp.attemptsReached("orders", 10, 10, 1L).applyTo(SENT);
        WireMessage twice = DeadLetterStamp.attemptsReached("retries", 2, 2, 2L).applyTo(once);
        assertEquals("retries", twice.property("JMS_PARTITA_OriginalDestination"));
        assertEquals(2, twice.property("JMS_PARTITA_DeliveryCount"));
        assertEquals(once.properties().size(), twice.properties().size());
    }
}
