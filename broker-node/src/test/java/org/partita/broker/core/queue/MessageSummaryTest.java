package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.PartitionKeys;
import org.partita.protocol.WireMessage;

/** The head a store keeps of each message: what dispatch needs, and nothing it would misread. */
class MessageSummaryTest {

    @Test
    void theHeadOfAMessageCarriesWhatDispatchReads() {
        WireMessage wire = new WireMessage(
                "ID:1",
                1000L,
                null,
                null,
                "q:orders",
                null,
                WireMessage.PERSISTENT,
                7,
                5_000L,
                2_000L,
                Map.of("JMSXGroupID", "m-042"),
                WireMessage.BODY_TEXT,
                new byte[] {1, 2, 3});
        byte[] encoded = MessageCodec.encode(wire);
        MessageSummary s = MessageSummary.decode(MessageSummary.headOf(encoded));
        assertEquals(new MessageSummary(encoded.length, 7, true, 5_000L, 2_000L, true, PartitionKeys.hash("m-042")), s);

        MessageRef restored =
                MessageRef.restored(1, MessageSummary.headOf(encoded), new PayloadMemory(0, id -> encoded));
        MessageRef original = new MessageRef(1, encoded, wire, null);
        assertEquals(original.partition(8), restored.partition(8));
        assertEquals(original.size(), restored.size());
        assertEquals(original.priority(), restored.priority());
        assertEquals(original.expiration(), restored.expiration());
        assertEquals(original.deliveryTime(), restored.deliveryTime());
        assertEquals("ID:1", restored.wire().messageId(), "the rest is read back from the store");
    }

    @Test
    void aMessageSentWithoutDelayIsDeliverableAtOnceWhateverTheSendersClock() {
        long aMinuteAhead = System.currentTimeMillis() + 60_000;
        WireMessage noDelay = new WireMessage(
                "ID:2",
                aMinuteAhead,
                null,
                null,
                "q:orders",
                null,
                WireMessage.PERSISTENT,
                4,
                0L,
                aMinuteAhead,
                Map.of(),
                WireMessage.BODY_TEXT,
                new byte[0]);
        assertEquals(
                0,
                new MessageRef(2, MessageCodec.encode(noDelay), noDelay, null).deliveryTime(),
                "a client clock ahead of the node's must not hold the message back");
        WireMessage delayed = new WireMessage(
                "ID:3",
                aMinuteAhead,
                null,
                null,
                "q:orders",
                null,
                WireMessage.PERSISTENT,
                4,
                0L,
                aMinuteAhead + 5_000,
                Map.of(),
                WireMessage.BODY_TEXT,
                new byte[0]);
        assertEquals(
                aMinuteAhead + 5_000, new MessageRef(3, MessageCodec.encode(delayed), delayed, null).deliveryTime());
    }

    @Test
    void aHeadOfAnotherFormatIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> MessageSummary.decode(new byte[] {9, 0, 0}));
    }
}
