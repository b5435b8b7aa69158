package org.partita.broker.network.flow;

import io.netty.channel.Channel;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.broker.config.HeapCost;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.protocol.Frame;

/**
 * Flow control of one connection's sends. A client of protocol 3 on may have {@code window} bytes of
 * sends on their way (SEND_CREDIT, docs/protocol.md); the node gives the bytes of a send back once
 * it is stored or queued, unless a node-wide budget ({@link NodeMemory}) is spent: then the credit
 * waits, and the producer blocks in {@code send} until consumers or the store catch up. Past the
 * in-flight budget the node also stops reading the connection (auto-read off), which holds back
 * clients that ignore credit (protocol 2) as well. Credit for non-persistent sends also follows
 * the consumption of the queues they went to ({@link ConsumptionPace}).
 */
public final class SendWindow implements NodeMemory.Waiter {
    private final Channel channel;
    private final NodeMemory memory;
    private final ConsumptionPace pace;
    private final int window;
    private final boolean credited;
    /** Bytes of sends read and not yet handled, on this connection. */
    private final AtomicLong outstanding = new AtomicLong();

    private final AtomicLong persistentGrant = new AtomicLong();
    private final AtomicLong nonPersistentGrant = new AtomicLong();
    /** The queues the non-persistent sends whose credit is withheld went to. */
    private final Set<BrokerQueue> pacedBy = ConcurrentHashMap.newKeySet();
    /** One instance, so that watching a queue again replaces the earlier watch instead of adding one. */
    private final Runnable resumer = this::resume;

    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    /** Event loop only. */
    private boolean readingPaused;

    public SendWindow(Channel channel, NodeMemory memory, ConsumptionPace pace, int window, boolean credited) {
        this.channel = channel;
        this.memory = memory;
        this.pace = pace;
        this.window = window;
        this.credited = credited;
    }

    /** The handshake is done: the first credit. */
    public void open() {
        if (credited) {
            channel.writeAndFlush(new Frame.SendCredit(window), channel.voidPromise());
        }
    }

    /** A SEND of {@code bytes} was read (event loop): its message takes its heap cost until handled, its length in credit. */
    public void received(int bytes) {
        outstanding.addAndGet(bytes);
        memory.reading(HeapCost.of(bytes));
        if (memory.inFlightSpent() && !readingPaused) {
            readingPaused = true;
            ReadSwitch.of(channel).hold(ReadSwitch.Reason.SENDS);
            memory.await(this);
        }
    }

    /**
     * The node is done with a send (stored, queued, refused or failed): its bytes come back. Any thread.
     *
     * @param queued the queues a non-persistent message went to (their consumers pace its credit); empty otherwise
     */
    public void handled(int bytes, boolean persistent, List<BrokerQueue> queued) {
        memory.done(HeapCost.of(bytes));
        if (!persistent) {
            pacedBy.addAll(queued);
        }
        (persistent ? persistentGrant : nonPersistentGrant).addAndGet(bytes);
        long left = outstanding.addAndGet(-bytes);
        // credit goes back in batches, or at once when nothing else is on its way to be handled
        if (left == 0 || persistentGrant.get() + nonPersistentGrant.get() >= window / 8) {
            scheduleFlush();
        }
    }

    /** A budget has room again. */
    @Override
    public void resume() {
        scheduleFlush();
    }

    /** The connection closed: nothing waits for it any more. */
    public void closed() {
        memory.forget(this);
        for (BrokerQueue q : pacedBy) {
            q.consumption().unwatch(resumer);
        }
    }

    private void scheduleFlush() {
        if (flushScheduled.compareAndSet(false, true)) {
            channel.eventLoop().execute(this::flush);
        }
    }

    /** Takes from the withheld non-persistent credit what the consumers of its queues allow now. */
    private long paced() {
        long wanted = nonPersistentGrant.get();
        if (wanted <= 0) {
            return 0;
        }
        long withheld = wanted + persistentGrant.get();
        long inHand = window - outstanding.get() - withheld;
        long allowed = pace.allowance(pacedBy, wanted, inHand, resumer);
        nonPersistentGrant.addAndGet(-allowed);
        if (allowed == wanted) {
            pacedBy.clear(); // nothing withheld: a later send names its queues again
        }
        return allowed;
    }

    private void flush() {
        flushScheduled.set(false);
        if (!channel.isActive()) {
            return;
        }
        boolean inFlightSpent = memory.inFlightSpent();
        if (readingPaused && !inFlightSpent) {
            readingPaused = false;
            ReadSwitch.of(channel).release(ReadSwitch.Reason.SENDS);
        }
        long grant = 0;
        if (!inFlightSpent) {
            grant += persistentGrant.getAndSet(0);
            if (!memory.nonPersistentSpent()) {
                grant += paced();
            }
        }
        if (grant > 0 && credited) {
            channel.writeAndFlush(
                    new Frame.SendCredit((int) Math.min(Integer.MAX_VALUE, grant)), channel.voidPromise());
        }
        if (readingPaused || persistentGrant.get() > 0 || nonPersistentGrant.get() > 0) {
            memory.await(this);
        }
    }
}
