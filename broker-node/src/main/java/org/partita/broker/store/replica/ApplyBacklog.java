package org.partita.broker.store.replica;

/**
 * The bytes of entries a replica applied and its store has not written yet, bounded: an apply past
 * the bound waits until the store caught up. One per replica set on a node: a set waits only for its
 * own store.
 *
 * <p>Ratis applies an entry as soon as it is committed and does not wait for the write the apply
 * starts, so a store slower than the log (a follower catching up on large messages) would gather
 * every committed entry's writes in the heap. Waiting holds back Ratis's apply thread of the set and,
 * through it, the replies to the set's writes on its leader: the producers wait instead of the heap
 * filling. A single entry larger than the bound goes on its own once nothing else is waiting.
 */
final class ApplyBacklog {
    private final long boundBytes;
    private long pendingBytes;

    ApplyBacklog(long boundBytes) {
        if (boundBytes <= 0) {
            throw new IllegalArgumentException("the apply backlog's bound must be positive, not " + boundBytes);
        }
        this.boundBytes = boundBytes;
    }

    /**
     * Counts {@code bytes} about to be handed to a store, once they fit under the bound (or nothing
     * else is pending). An interrupt (Ratis stopping the set) ends the wait; the bytes are counted all
     * the same, as they are written all the same.
     */
    synchronized void take(long bytes) {
        boolean interrupted = false;
        while (pendingBytes > 0 && pendingBytes + bytes > boundBytes && !interrupted) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        pendingBytes += bytes;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The store wrote (or failed to write) {@code bytes} counted by {@link #take}. */
    synchronized void give(long bytes) {
        pendingBytes -= bytes;
        notifyAll();
    }

    synchronized long pendingBytes() {
        return pendingBytes;
    }
}
