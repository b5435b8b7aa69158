package org.partita.broker.cluster;

import java.util.ArrayDeque;

/**
 * The sends to one clustered queue that wait while its layout changes, let go in the order they
 * came. While they are let go, sends that come meanwhile join the end of the line, so none overtakes
 * an earlier one; only then do sends go straight through again.
 */
final class HeldSends {
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private boolean holding = true;
    /** The thread letting the sends go: its own sends are not held again. */
    private Thread releasing;

    /** Whether a send on this thread would wait now. */
    synchronized boolean holding() {
        return holding && releasing != Thread.currentThread();
    }

    /** Puts {@code send} in line; false if sends are not held (any more): the caller runs it. */
    synchronized boolean hold(Runnable send) {
        if (!holding()) {
            return false;
        }
        waiting.add(send);
        return true;
    }

    synchronized int size() {
        return waiting.size();
    }

    /** Runs the waiting sends in order on this thread, then stops holding. */
    void release() {
        synchronized (this) {
            releasing = Thread.currentThread();
        }
        while (true) {
            Runnable next;
            synchronized (this) {
                next = waiting.poll();
                if (next == null) {
                    holding = false;
                    releasing = null;
                    return;
                }
            }
            next.run();
        }
    }
}
