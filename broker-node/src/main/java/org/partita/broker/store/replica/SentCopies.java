package org.partita.broker.store.replica;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.partita.broker.store.StoreOp;
import org.partita.protocol.MessageCodec;

/**
 * What a write to a replica set stores of the messages producers sent, as a set remembers it to
 * keep one copy of a send made again ({@link RecentSends}): one key per queue a message went to
 * and its JMSMessageID. By queue, not by message alone: a fan-out queue's message is one copy per
 * AppId queue with one JMSMessageID, and copies sent again through forward logs reach the leader
 * one AppId at a time; remembered by id alone, the first copy stored made the leader take the
 * next AppId's copy for a repeat and drop it (an AppId then lacked a confirmed message).
 */
final class SentCopies {
    private SentCopies() {}

    /** The copy of {@code messageId} in {@code queue}. */
    static String key(String queue, String messageId) {
        return queue + '\u0000' + messageId;
    }

    /** The copies a write's operations store: each entry inserted with its message in the same write. */
    static List<String> of(List<StoreOp> ops) {
        Map<Long, String> ids = null;
        for (StoreOp op : ops) {
            if (op instanceof StoreOp.InsertMessage m) {
                String id = MessageCodec.peekMessageId(m.payload());
                if (id != null) {
                    if (ids == null) {
                        ids = new HashMap<>();
                    }
                    ids.put(m.messageId(), id);
                }
            }
        }
        if (ids == null) {
            return List.of(); // acknowledgements and other changes: this runs for every write
        }
        List<String> copies = new ArrayList<>();
        for (StoreOp op : ops) {
            if (op instanceof StoreOp.InsertEntry e) {
                String id = ids.get(e.messageId());
                if (id != null) {
                    copies.add(key(e.queue(), id));
                }
            }
        }
        return copies;
    }
}
