package org.partita.jms.client;

import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.partita.jms.transport.BrokerConnection;

/**
 * The room one consumer gives the node, which delivers only within it. With a prefetch window of
 * {@code n}: credit for {@code n} messages while the connection is started, topped up in batches as
 * the application takes them. With prefetch 0: one message at a time, asked for when the
 * application waits for one, so an idle consumer holds nothing. A consumer of a stopped connection
 * holds no credit at the node, so it takes nothing from a queue that another consumer could have.
 * With a prefetch window, the node also counts the bytes it sent that the credit given back has not
 * covered, and stops at {@link #windowBytes} (large messages then come a few at a time, however
 * many the window of messages allows); the room given back is then the node's to match with what it
 * sent, oldest first, so it needs no sizes from here.
 */
final class ConsumerCredit {
    private final BrokerConnection transport;
    private final int consumerId;
    private final int prefetch;
    /** The byte window asked of the node; 0 with prefetch 0, which holds one message at most anyway. */
    private final long windowBytes;
    /** The node knows the consumer: credit sent before its CONSUMER_OPEN would be lost. */
    private boolean announced;
    /** A prefetch window is granted at the node. */
    private boolean open;
    /** Taken deliveries whose room is not yet given back, and their bytes. */
    private int owed;

    private long owedBytes;
    /** Prefetch 0: one message was asked for and has not arrived. */
    private boolean pulling;

    ConsumerCredit(BrokerConnection transport, int consumerId, int prefetch, long prefetchBytes) {
        this.transport = transport;
        this.consumerId = consumerId;
        this.prefetch = prefetch;
        this.windowBytes = prefetch > 0 ? prefetchBytes : 0;
    }

    int prefetch() {
        return prefetch;
    }

    long windowBytes() {
        return windowBytes;
    }

    /**
     * Opens the consumer at the node with the credit it may have now. Under this object's lock, so
     * that a {@link #start} racing with it cannot send credit ahead of the open.
     */
    synchronized CompletableFuture<Void> announce(boolean started, IntFunction<CompletableFuture<Void>> openAtNode) {
        announced = true;
        open = started && prefetch > 0;
        return openAtNode.apply(open ? prefetch : 0);
    }

    /**
     * The connection started: the node may fill the window. Completes once the node's queue has the
     * credit (a no-change consumer update answered after it), so that what is sent after
     * {@code start()} returns reaches the consumer, broadcasts included.
     */
    synchronized CompletableFuture<Void> start() {
        if (announced && prefetch > 0 && !open) {
            open = true;
            owed = 0;
            owedBytes = 0;
            transport.credit(consumerId, prefetch);
            return transport.updateConsumer(consumerId, null, null, null);
        }
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Deliveries left the buffer (taken by the application or given back): their room returns, in
     * batches of half the window of messages, or sooner once they free half the byte window.
     */
    synchronized void freed(int n, long bytes) {
        if (!open) {
            return;
        }
        owed += n;
        owedBytes += bytes;
        if (owed >= Math.max(1, prefetch / 2) || (windowBytes > 0 && owedBytes >= windowBytes / 2)) {
            giveBackOwed();
        }
    }

    /** Gives the node at once the room still owed (after a failover: the window is whole again on the new node). */
    synchronized void flush() {
        if (open && owed > 0) {
            giveBackOwed();
        }
    }

    private void giveBackOwed() {
        transport.credit(consumerId, owed);
        owed = 0;
        owedBytes = 0;
    }

    /** {@link #freed} counted a delivery that went back into the buffer. */
    synchronized void unfree(long bytes) {
        if (open) {
            owed--;
            owedBytes -= bytes;
        }
    }

    /** Prefetch 0: asks the node for one message, unless one was asked for already. */
    synchronized void pull() {
        if (announced && prefetch == 0 && !pulling) {
            pulling = true;
            transport.credit(consumerId, 1);
        }
    }

    /**
     * With a prefetch window open: completes once the node's queue has run everything asked of it so
     * far (a no-change consumer update is answered after the queue's earlier work, and after the
     * deliveries that work wrote), so what the queue had for this consumer by then is in the buffer.
     */
    CompletableFuture<Void> sync() {
        synchronized (this) {
            if (!open) {
                return CompletableFuture.completedFuture(null);
            }
        }
        return transport.updateConsumer(consumerId, null, null, null);
    }

    /**
     * A delivery arrived: with prefetch 0 it answers the pull. {@code buffering} (which puts it where
     * the application takes it) then runs under this object's lock, as the pull counts as answered: a
     * {@link #drain} that finds no pull outstanding asks the node nothing, and its caller looks in
     * the buffer at once, so the delivery must be there by then.
     */
    <T> T arrived(Supplier<T> buffering) {
        if (prefetch > 0) {
            // No pull to answer. Not under the lock: buffering wakes the application's thread, which
            // takes the delivery and gives its room back through freed() at once; holding the lock
            // here made it wait for this thread, a second wake-up per message.
            return buffering.get();
        }
        synchronized (this) {
            pulling = false;
            return buffering.get();
        }
    }

    boolean pullsOneByOne() {
        return prefetch == 0;
    }

    /**
     * Takes back whatever credit the node still has; completes once no delivery it allowed can still
     * be on its way, so the buffer then holds everything the consumer was given.
     */
    CompletableFuture<Void> drain() {
        synchronized (this) {
            boolean outstanding = open || pulling;
            open = false;
            pulling = false;
            owed = 0;
            owedBytes = 0;
            if (!outstanding) {
                return CompletableFuture.completedFuture(null);
            }
        }
        return transport.drain(consumerId);
    }
}
