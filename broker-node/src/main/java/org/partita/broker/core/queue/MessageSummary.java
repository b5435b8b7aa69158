package org.partita.broker.core.queue;

import java.nio.ByteBuffer;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.PartitionKeys;
import org.partita.protocol.WireMessage;

/**
 * What dispatch reads of every waiting message, without its payload: size, priority, delivery
 * mode, expiration, delivery time and the hash of its partition key. A paged-out {@link MessageRef}
 * keeps these; the store keeps them encoded beside each payload (its "head"), so that a start with
 * a deep backlog rebuilds its queues from 28 bytes a message instead of the whole message.
 */
public record MessageSummary(
        int size, int priority, boolean persistent, long expiration, long deliveryTime, boolean keyed, int keyHash) {
    private static final byte FORMAT = 1;
    private static final int ENCODED_SIZE = 28;

    static MessageSummary of(WireMessage wire, int size) {
        String key = wire.partitionKey();
        return new MessageSummary(
                size,
                wire.priority(),
                wire.persistent(),
                wire.expiration(),
                deliveryTimeOf(wire),
                key != null,
                key == null ? 0 : PartitionKeys.hash(key));
    }

    /**
     * When the message may be delivered: 0 (at once) when it was sent without a delivery delay, its
     * delivery time being its timestamp. Both are read from the sending client's clock; compared with
     * the node's, a client clock ahead would hold every message back by the difference, and one set
     * back between two sends would let a key's later message pass an earlier one. A message sent
     * with a delay keeps its time.
     */
    static long deliveryTimeOf(WireMessage wire) {
        long sent = wire.timestamp();
        return sent > 0 && wire.deliveryTime() <= sent ? 0 : wire.deliveryTime();
    }

    /** The head of an encoded message, for {@code org.partita.broker.store.MessageHeads}. */
    public static byte[] headOf(byte[] encoded) {
        return of(MessageCodec.decodeHeaders(encoded), encoded.length).encode();
    }

    byte[] encode() {
        return ByteBuffer.allocate(ENCODED_SIZE)
                .put(FORMAT)
                .putInt(size)
                .put((byte) priority)
                .put((byte) (persistent ? 1 : 0))
                .putLong(expiration)
                .putLong(deliveryTime)
                .put((byte) (keyed ? 1 : 0))
                .putInt(keyHash)
                .array();
    }

    static MessageSummary decode(byte[] head) {
        ByteBuffer b = ByteBuffer.wrap(head);
        if (head.length != ENCODED_SIZE || b.get() != FORMAT) {
            throw new IllegalArgumentException(
                    "not a message head of format " + FORMAT + " (" + head.length + " bytes)");
        }
        return new MessageSummary(
                b.getInt(), b.get(), b.get() == 1, b.getLong(), b.getLong(), b.get() == 1, b.getInt());
    }
}
