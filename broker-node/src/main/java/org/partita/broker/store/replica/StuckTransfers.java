package org.partita.broker.store.replica;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks every second for a set this node leads whose leadership transfer Ratis left pending after it
 * had already failed, and ends it, so that the set takes writes again.
 *
 * <p>While a transfer is pending, Ratis 3.2 refuses every write to the set ("stepping down"). A
 * transfer normally ends by itself: the transferee is elected, or a timeout fires. But when the
 * request to the transferee fails at once (its node just died and the channel to it already fails
 * every call), {@code TransferLeadership.start} answers the transfer as failed and neither clears it
 * nor schedules its timeout: the leader refuses every write until another node is elected, which
 * never happens while it leads well. Ratis starts such transfers itself, every idle moment, towards a
 * follower of higher priority that holds its whole log: the set's preferred leader, here. So a set
 * whose preferred node dies before the set took any write from its stand-in leader stops taking
 * writes for good (seen in CI: {@code ReplicatedLargeMessagesTest}, the node killed two seconds after
 * the start, every send to its set refused for 30 s). {@link PreferredLeaders}'s own hand-over goes
 * the same way when the node it hands to dies.
 *
 * <p>The state is recognised exactly: a pending transfer whose answer is already given, which Ratis's
 * own paths never leave (they clear it before they answer). Ending it is what Ratis's timeout would
 * have done: the reference is cleared, only if it still holds that transfer. Ratis has no public way
 * to reach it, so this reads three private fields and clears one; once a Ratis version no longer has
 * them it does nothing and the node warns at start: {@code ReplicaSetTest.aLeadershipTransferLeftPendingAfterItFailedIsEndedAndTheSetTakesWritesAgain}
 * fails then, so that whoever upgrades Ratis checks whether the new version still needs this (3.2.2
 * has the same code).
 */
final class StuckTransfers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StuckTransfers.class);
    private static final String IMPL = "org.apache.ratis.server.impl.";
    private static final Field TRANSFER = RatisFields.declared(IMPL + "RaftServerImpl", "transferLeadership");
    private static final Field PENDING = RatisFields.declared(IMPL + "TransferLeadership", "pending");
    private static final Field ANSWER = RatisFields.declared(IMPL + "TransferLeadership$PendingRequest", "replyFuture");
    private static final Field REQUEST = RatisFields.declared(IMPL + "TransferLeadership$PendingRequest", "request");

    private final RaftServer server;
    private final Function<RaftGroupId, ReplicatedStore> stores;
    private final AtomicLong ended = new AtomicLong();
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "partita-replica-transfers");
        t.setDaemon(true);
        return t;
    });

    StuckTransfers(RaftServer server, Function<RaftGroupId, ReplicatedStore> stores) {
        this.server = server;
        this.stores = stores;
        if (observable()) {
            watch.scheduleWithFixedDelay(this::look, 1, 1, TimeUnit.SECONDS);
        } else {
            LOG.warn("this Ratis version hides its leadership transfers: a set whose leader Ratis left refusing"
                    + " writes after a failed transfer is not released by the node");
        }
    }

    /** Whether this Ratis version's transfers can be seen at all. */
    static boolean observable() {
        return TRANSFER != null
                && PENDING != null
                && PENDING.getType() == AtomicReference.class
                && ANSWER != null
                && ANSWER.getType() == CompletableFuture.class
                && REQUEST != null
                && REQUEST.getType() == TransferLeadershipRequest.class;
    }

    /** How many stuck transfers this node ended. */
    long count() {
        return ended.get();
    }

    private void look() {
        try {
            for (RaftGroupId group : server.getGroupIds()) {
                RaftServer.Division division = server.getDivision(group);
                if (division.getInfo().isLeader()) {
                    String transferee = end(division);
                    if (transferee != null) {
                        ended.incrementAndGet();
                        ReplicatedStore store = stores.apply(group);
                        LOG.warn(
                                "replica set {}: its leadership transfer to {} failed at once and Ratis kept it"
                                        + " pending, refusing every write to the set; ended it, writes go on here",
                                store == null ? group : store.setName(),
                                transferee);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("looking for stuck leadership transfers: {}", e.toString());
        }
    }

    /**
     * Ends {@code division}'s leadership transfer if Ratis answered it and left it pending.
     *
     * @return the node the transfer was towards, or null if there was none to end
     */
    @SuppressWarnings("unchecked")
    static String end(RaftServer.Division division) {
        if (!observable() || !TRANSFER.getDeclaringClass().isInstance(division)) {
            return null;
        }
        try {
            AtomicReference<Object> pending = (AtomicReference<Object>) PENDING.get(TRANSFER.get(division));
            Object transfer = pending.get();
            if (transfer == null) {
                return null;
            }
            CompletableFuture<?> answer = (CompletableFuture<?>) ANSWER.get(transfer);
            if (answer == null || !answer.isDone()) {
                return null; // under way: the transferee's election or its timeout ends it
            }
            if (!pending.compareAndSet(transfer, null)) {
                return null;
            }
            return String.valueOf(((TransferLeadershipRequest) REQUEST.get(transfer)).getNewLeader());
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    @Override
    public void close() {
        watch.shutdownNow();
    }
}
