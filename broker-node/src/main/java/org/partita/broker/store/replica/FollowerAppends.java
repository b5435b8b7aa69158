package org.partita.broker.store.replica;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.ratis.server.RaftServer;

/**
 * Tells whether a replica's Raft division can no longer take appends from its leader, a state Ratis
 * 3.2.0 does not leave by itself.
 *
 * <p>Ratis chains each batch a follower appends to its log on the batch before it
 * ({@code RaftServerImpl.appendLogFuture}), so that batches reach the log in order. When one batch
 * fails, every later one fails with it, for as long as the division runs: the follower refuses every
 * append from its leader, and a set whose other follower is down has no majority. One way in, seen in
 * a 200-fault run: a copy of the leader's store installed while batches older than the copy were
 * still waiting in the chain; Ratis then dropped its log up to the copy, the waiting batch failed
 * Ratis's own check ("Difference between entry index and RaftLog's latest snapshot index ... is
 * greater than 1"), and the chain with it. Restarting the division starts a new chain
 * ({@link FollowerRestarts} does, when this says so).
 *
 * <p>Ratis has no public way to see the chain, so this reads that one private field, only reads it,
 * and says "unknown" (never "failed") once a Ratis version no longer has it (the node then warns at
 * start): {@code ReplicaSetTest.aFollowerWhoseAppendsFailedForGoodIsRestartedAndTheSetGoesOn} fails
 * then, so that whoever upgrades Ratis checks whether the new version still needs this (3.2.2 chains
 * the same way by default).
 */
final class FollowerAppends {
    private static final Field CHAIN = chainField();

    private FollowerAppends() {}

    private static Field chainField() {
        try {
            Class<?> impl = Class.forName("org.apache.ratis.server.impl.RaftServerImpl");
            Field f = impl.getDeclaredField("appendLogFuture");
            f.setAccessible(true);
            return f.getType() == AtomicReference.class ? f : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Whether this Ratis version's chain can be seen at all. */
    static boolean observable() {
        return CHAIN != null;
    }

    /** Whether {@code division}'s chain of appends failed, so that it refuses every later append. */
    static boolean failed(RaftServer.Division division) {
        CompletableFuture<?> last = chain(division);
        return last != null && last.isCompletedExceptionally();
    }

    /** The division's chain: the future of the last batch handed to its log, or null if it cannot be seen. */
    @SuppressWarnings("unchecked")
    static CompletableFuture<?> chain(RaftServer.Division division) {
        if (CHAIN == null || !CHAIN.getDeclaringClass().isInstance(division)) {
            return null;
        }
        try {
            Object ref = CHAIN.get(division);
            return ref == null ? null : ((AtomicReference<CompletableFuture<?>>) ref).get();
        } catch (IllegalAccessException e) {
            return null;
        }
    }
}
