package org.partita.jms.transport;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Delivery ids as the JMS facade sees them over a failover connection: unique across the nodes the
 * connection used. Each node numbers its deliveries from 1; a node reached after a failover has a
 * base (the highest id the facade had seen), added to its ids. An id at or below the current base
 * came from a lost node: it is void, and is never sent to the new node, which could have issued the
 * same number for another message.
 */
final class DeliveryIds {
    private final AtomicLong highest = new AtomicLong();

    /** The facade's id of a delivery (or a recover's fence) numbered {@code nodeId} by a node with {@code base}. */
    long seen(long base, long nodeId) {
        long id = base + nodeId;
        highest.accumulateAndGet(id, Math::max);
        return id;
    }

    /** The highest id the facade has seen: the base of the next node. */
    long highest() {
        return highest.get();
    }

    /** The ids the node of {@code base} issued, as it numbered them; the void ones are left out. */
    static long[] onNode(long[] ids, long base) {
        return Arrays.stream(ids).filter(id -> id > base).map(id -> id - base).toArray();
    }
}
