package org.partita.broker.store.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.broker.store.StoreOp;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.WireMessage;

class SentCopiesTest {
    private static byte[] payload(String jmsMessageId) {
        return MessageCodec.encode(new WireMessage(
                jmsMessageId,
                0,
                null,
                null,
                "queue:fan",
                null,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                java.util.Map.of(),
                WireMessage.BODY_NONE,
                new byte[0]));
    }

    @Test
    void aFanOutMessageStoredForOneAppIdIsNotKeptForTheOther() {
        // the billing copy of a message, stored on its own (a forward log sends each AppId's copy apart)
        List<String> billing = SentCopies.of(
                List.of(new StoreOp.InsertMessage(7, payload("ID:p-1")), new StoreOp.InsertEntry("fan#billing", 7)));
        RecentSends recent = new RecentSends(100, 1_000_000);
        billing.forEach(c -> recent.add(c, 0));

        assertTrue(recent.contains(SentCopies.key("fan#billing", "ID:p-1"), 0), "billing's copy kept");
        assertFalse(
                recent.contains(SentCopies.key("fan#audit", "ID:p-1"), 0),
                "audit's copy, sent again with the same JMSMessageID, is not taken for billing's");
    }

    @Test
    void oneWriteOfBothCopiesKeepsEach() {
        List<String> both = SentCopies.of(List.of(
                new StoreOp.InsertMessage(7, payload("ID:p-2")),
                new StoreOp.InsertEntry("fan#billing", 7),
                new StoreOp.InsertEntry("fan#audit", 7),
                new StoreOp.DeleteEntry("fan#audit", 3)));
        assertEquals(List.of(SentCopies.key("fan#billing", "ID:p-2"), SentCopies.key("fan#audit", "ID:p-2")), both);
    }

    @Test
    void writesThatStoreNoMessageHaveNoCopies() {
        assertEquals(
                List.of(), SentCopies.of(List.of(new StoreOp.DeleteEntry("q", 1), new StoreOp.DeleteMessage(1, 10))));
    }
}
