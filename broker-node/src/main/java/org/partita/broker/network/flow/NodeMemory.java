package org.partita.broker.network.flow;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The node-wide memory budgets of flow control: bytes of frames being read, of sends read and not
 * yet stored or queued, and of replies and deliveries waiting to be written (in flight); payload
 * bytes of non-persistent messages held in queues; and bytes of sends held in open transactions
 * (local ones and XA branches), which are refused past their bound rather than waited for (only a
 * commit or a rollback frees them, and those must still be read). Connections whose send
 * credit or reading was held back because a budget was spent wait here; they are resumed when the
 * budget has room again (checked as in-flight sends finish and on a short tick, since consumers
 * free non-persistent bytes from the queues' threads without telling anyone).
 *
 * <p>Past the in-flight budget one connection at a time may go on reading a large frame it started
 * (the finisher, {@link #mayFinish}): so a frame larger than the whole budget still completes, and
 * connections that each hold part of one never wait on each other for ever.
 */
public final class NodeMemory {
    private final long inFlightLimit;
    private final long nonPersistentLimit;
    private final long openTransactionLimit;
    private final LongSupplier nonPersistentBytes;
    private final AtomicLong inFlight = new AtomicLong();
    /** The part of {@link #inFlight} that is frames being read ({@link FrameBudget}). */
    private final AtomicLong partialFrames = new AtomicLong();

    private final AtomicLong openTransactions = new AtomicLong();
    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Reader> finisher = new AtomicReference<>();
    private final Set<Writer> writers = ConcurrentHashMap.newKeySet();

    /**
     * How long a connection holding more than its {@link #writeShare} of bytes waiting to be written
     * may take nothing while the budget is spent before it is closed as one that does not read: long
     * enough for a client that reads to take a large message over a slow link.
     */
    static final long WRITE_STALL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);

    /** A connection reading a frame. */
    interface Reader {
        /** Not read at the moment (any thread): held back for its sends, so it cannot be the one finishing a frame. */
        boolean stalled();
    }

    /** A connection with bytes waiting to be written. */
    interface Writer {
        /** The budget is spent (any thread): close the connection if it holds more than its share and takes nothing. */
        void checkStalled();
    }

    /** A connection held back until a budget has room again. */
    interface Waiter {
        /** A budget may have room: check again (any thread). */
        void resume();
    }

    public NodeMemory(
            long inFlightLimit, long nonPersistentLimit, long openTransactionLimit, LongSupplier nonPersistentBytes) {
        this.inFlightLimit = inFlightLimit;
        this.nonPersistentLimit = nonPersistentLimit;
        this.openTransactionLimit = openTransactionLimit;
        this.nonPersistentBytes = nonPersistentBytes;
    }

    /**
     * Counts a send of {@code bytes} into an open transaction; false, counting nothing, if the open
     * transactions of every connection would then hold more than their node-wide bound.
     */
    public boolean admitTransacted(long bytes) {
        long held;
        do {
            held = openTransactions.get();
            if (held + bytes > openTransactionLimit) {
                return false;
            }
        } while (!openTransactions.compareAndSet(held, held + bytes));
        return true;
    }

    /** A transaction holding {@code bytes} of sends committed, rolled back or went away with its session. */
    public void transactionEnded(long bytes) {
        openTransactions.addAndGet(-bytes);
    }

    public long openTransactionBytes() {
        return openTransactions.get();
    }

    public long openTransactionLimit() {
        return openTransactionLimit;
    }

    void reading(long bytes) {
        inFlight.addAndGet(bytes);
    }

    /** Bytes of a frame not yet complete, counted in the budget until {@link #framed}. */
    void framing(long bytes) {
        partialFrames.addAndGet(bytes);
        reading(bytes);
    }

    /** Bytes counted by {@link #framing} were decoded into a frame or dropped with their connection. */
    void framed(long bytes) {
        partialFrames.addAndGet(-bytes);
        done(bytes);
    }

    void done(long bytes) {
        if (inFlight.addAndGet(-bytes) <= inFlightLimit) {
            resumeWaiting();
        }
    }

    /** Bytes about to be written to a connection: counted until the socket took them (or the connection closed). */
    void writing(long bytes) {
        inFlight.addAndGet(bytes);
    }

    /** Bytes counted by {@link #writing} left for the socket (or were dropped as the connection closed). */
    void written(long bytes) {
        done(bytes);
    }

    /** {@code w} has more than its {@link #writeShare} waiting: looked at on the tick while the budget is spent. */
    void holding(Writer w) {
        writers.add(w);
    }

    void notHolding(Writer w) {
        writers.remove(w);
    }

    /** On a tick: while the budget is spent, connections holding more than their share close if they stalled. */
    public void checkWriters() {
        if (inFlightSpent()) {
            for (Writer w : writers) {
                w.checkStalled();
            }
        }
    }

    /** What one connection may have waiting to be written while the in-flight budget is spent: a sixteenth of it. */
    long writeShare() {
        return Math.max(inFlightLimit / 16, 64 * 1024);
    }

    long inFlightLimit() {
        return inFlightLimit;
    }

    boolean inFlightSpent() {
        return inFlight.get() > inFlightLimit;
    }

    boolean nonPersistentSpent() {
        return nonPersistentBytes.getAsLong() > nonPersistentLimit;
    }

    /** Far past the non-persistent budget: only a sender that ignores its credit gets here, and it is refused. */
    public boolean nonPersistentOverrun() {
        return nonPersistentBytes.getAsLong() > nonPersistentLimit + nonPersistentLimit / 2;
    }

    public long inFlightBytes() {
        return inFlight.get();
    }

    long nonPersistentBytes() {
        return nonPersistentBytes.getAsLong();
    }

    void await(Waiter w) {
        waiting.add(w);
    }

    void forget(Waiter w) {
        waiting.remove(w);
    }

    /**
     * True if {@code reader} is, or now becomes, the one connection that may finish its frame past the
     * budget. It takes the turn of one that is not read any more (its sends hold it back), or that turn
     * would keep every other reader waiting on budget that only their own frames hold. Nobody takes it
     * while decoded sends and writes alone spend the budget: they leave it by themselves (stored,
     * written), and a turn taken then would let each connection in turn add a whole frame to the heap.
     */
    boolean mayFinish(Reader reader) {
        Reader current = finisher.get();
        if (current == reader) {
            return true;
        }
        if (inFlight.get() - partialFrames.get() > inFlightLimit) {
            return false;
        }
        return (current == null || current.stalled()) && finisher.compareAndSet(current, reader);
    }

    /** {@code reader} finished its frame (or closed): another waiting one may take its turn. */
    void finished(Reader reader) {
        if (finisher.compareAndSet(reader, null)) {
            wakeAll();
        }
    }

    /** Gives every waiting connection a chance to go on; each checks the budgets again on its own event loop. */
    public void resumeWaiting() {
        // spent with nobody finishing a frame: wake them anyway, so that a reader of a frame may take the turn
        if (waiting.isEmpty() || (inFlightSpent() && finishing())) {
            return;
        }
        wakeAll();
    }

    private boolean finishing() {
        Reader current = finisher.get();
        return current != null && !current.stalled();
    }

    private void wakeAll() {
        for (Waiter w : waiting) {
            if (waiting.remove(w)) {
                w.resume();
            }
        }
    }
}
