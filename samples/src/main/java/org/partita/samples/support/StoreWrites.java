package org.partita.samples.support;

import java.util.Map;

/**
 * What a node's store has committed since the node started, from {@code node.status}: message
 * payloads and queue entries (one per queue or AppId holding a stored message). The difference of
 * two readings shows how often the messages sent in between were stored.
 */
public record StoreWrites(long messages, long entries) {

    static StoreWrites of(Map<String, String> nodeStatus) {
        String messages = nodeStatus.get("messagesWritten");
        String entries = nodeStatus.get("entriesWritten");
        if (messages == null || entries == null) {
            throw new IllegalStateException(
                    "the node does not report what its store writes (messagesWritten, entriesWritten)");
        }
        return new StoreWrites(Long.parseLong(messages), Long.parseLong(entries));
    }

    /** What was written between {@code earlier} and this reading. */
    public StoreWrites since(StoreWrites earlier) {
        return new StoreWrites(messages - earlier.messages, entries - earlier.entries);
    }

    @Override
    public String toString() {
        return messages + " message payloads and " + entries + " queue entries";
    }
}
