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
    /** A producer's message as the store keeps it, with its JMSMessageID. */
    static byte[] payload(String jmsMessageId) {
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

    /**
     * A follower that takes a copy of its leader's store remembers its messages by queue too: a copy
     * holding only billing's copy of a fan-out message does not make audit's copy, sent again, look kept.
     */
    @Test
    void aStoreCopyNamesEachCopyByItsQueue(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        var leader = org.partita.broker.store.h2.H2MessageStore.open(dir.resolve("leader"), true);
        var follower = org.partita.broker.store.h2.H2MessageStore.open(dir.resolve("follower"), true);
        try {
            leader.write(org.partita.broker.store.StoreBatch.relaxed()
                            .add(new StoreOp.InsertMessage(7, payload("ID:p-3")))
                            .add(new StoreOp.InsertEntry("fan#billing", 7))
                            .add(new StoreOp.InsertMessage(8, payload("ID:p-4")))
                            .add(new StoreOp.InsertEntry("fan#billing", 8))
                            .add(new StoreOp.InsertEntry("fan#audit", 8)))
                    .get();
            java.nio.file.Path file = dir.resolve("copy");
            StoreCopy.write(leader, file);
            java.util.Set<String> copies = new java.util.TreeSet<>();
            StoreCopy.load(follower, file, copies::add);
            assertEquals(
                    new java.util.TreeSet<>(List.of(
                            SentCopies.key("fan#billing", "ID:p-3"),
                            SentCopies.key("fan#billing", "ID:p-4"),
                            SentCopies.key("fan#audit", "ID:p-4"))),
                    copies);
        } finally {
            leader.close();
            follower.close();
        }
    }

    @Test
    void writesThatStoreNoMessageHaveNoCopies() {
        assertEquals(
                List.of(), SentCopies.of(List.of(new StoreOp.DeleteEntry("q", 1), new StoreOp.DeleteMessage(1, 10))));
    }
}
