package org.partita.broker.network.flow;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.partita.broker.core.queue.BrokerQueue;

/**
 * Paces producers of non-persistent messages by the consumers of the queues they send to. Credit
 * for such a send normally comes back once the message is queued, so a producer faster than its
 * consumer could build a backlog of up to {@code limits.nonPersistentBytes} in front of it, and
 * every message would wait behind it. While a queue's consumers are taking messages, this keeps
 * what the queue holds plus the credit its producer has in hand near {@code limits.pacedBacklogBytes}:
 * the producer then sends as fast as the consumers take.
 * <p>
 * It never makes a producer wait for a consumer that is not taking messages: a queue whose
 * consumers took nothing for {@link #ACTIVE_NANOS} (none attached, a stopped connection, a full
 * prefetch buffer, or an application that sends many messages from the thread that would receive
 * them) does not pace, and credit flows as without it. So a producer waits at most that long for
 * consumers that stopped, and never for ever.
 */
public final class ConsumptionPace {
    /** A queue counts as being consumed while a consumer took a message this recently. */
    static final long ACTIVE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final long boundBytes;

    public ConsumptionPace(long boundBytes) {
        this.boundBytes = boundBytes;
    }

    /**
     * How much of {@code wanted} withheld non-persistent credit may go back now.
     *
     * @param queues  the queues the withheld sends went to
     * @param inHand  credit the producer has or that is on its way to the node (it may send that much
     *                without being given more)
     * @param resume  run once a paced queue has room again
     */
    long allowance(Collection<BrokerQueue> queues, long wanted, long inHand, Runnable resume) {
        long allowed = wanted;
        long now = System.nanoTime();
        for (BrokerQueue q : queues) {
            if (now - q.consumption().lastTakenNanos() >= ACTIVE_NANOS) {
                continue;
            }
            long room = Math.max(0, boundBytes - q.heldBytes() - Math.max(0, inHand));
            if (room < allowed) {
                allowed = room;
                // hand more back once consumers took a quarter of the bound, so that credit goes in batches
                q.consumption().watch(boundBytes - boundBytes / 4, resume);
            }
        }
        return allowed;
    }
}
