package org.partita.broker.cluster;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.partita.broker.store.replica.ReplicaSet;
import org.partita.broker.store.replica.ReplicatedStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each replica set this node leads back to the set's preferred leader (its first node) once
 * that node is back and has caught up, so that leaders spread over the nodes again after a node
 * returned. Ratis would do so on its own (the preferred leader has the highest priority), but only
 * while that follower holds every entry at the moment it looks, which under a steady load it seldom
 * does: leaders stayed gathered on the nodes that stayed up.
 *
 * <p>A set is handed over when its preferred leader is another node, linked to this one, answering
 * the set's log appender and behind by at most {@link #MAX_LAG_ENTRIES} committed entries, and has
 * been all of that for {@link #STEADY_MILLIS} without a break (so not within a second of coming
 * back). At most one request per set every {@link #RETRY_MILLIS}; one that fails (refused, timed
 * out) is let go, and the set is handed over at a later check.
 *
 * <p>The hand-over is Ratis's leadership transfer: the leader stops taking writes, lets the
 * follower catch up and has it stand for election at once. For the rest of the node it is an
 * ordinary change of leader (this node stops serving the set when Ratis says another node leads;
 * that node serves it once its store has applied the log). Since the new leader is elected without
 * waiting for an election timeout, this node stops delivering the set's messages ({@link Handover})
 * before it asks, rather than relying on its leadership lease.
 *
 * <p>{@link #check} runs on one thread, now and then (the replica sets' worker).
 */
final class PreferredLeaders {
    private static final Logger LOG = LoggerFactory.getLogger(PreferredLeaders.class);

    /** The most committed entries the preferred leader may still miss when it is handed the set. */
    static final long MAX_LAG_ENTRIES = 200;
    /** How long it must have been up, answering and caught up before it is handed the set. */
    static final long STEADY_MILLIS = 1_000;
    /** The least time between two requests for the same set. */
    static final long RETRY_MILLIS = 5_000;

    /** What this node does around a hand-over. */
    interface Handover {
        /**
         * Whether the set's messages are held here ({@code true}: no delivery, before the request)
         * or not any more (the request ended; if this node still leads, it delivers again once its
         * leadership is confirmed afresh).
         */
        void holding(String set, boolean holding);
    }

    private final String self;
    private final Predicate<String> linked;
    private final Handover handover;
    private final long electionMillis;
    private final LongSupplier nanos;
    /** Per set: since when (nanos) its preferred leader has been fit to take it, without a break. */
    private final Map<String, Long> fitSince = new ConcurrentHashMap<>();
    /** Per set: when (nanos) it was last asked for. */
    private final Map<String, Long> askedAt = new ConcurrentHashMap<>();
    /** The sets whose request has not ended yet. */
    private final Set<String> pending = ConcurrentHashMap.newKeySet();

    /**
     * @param linked         whether a node other than this one is linked to it now
     * @param electionMillis the sets' election timeout: a follower silent for longer is not handed a set
     */
    PreferredLeaders(
            String self, Predicate<String> linked, Handover handover, long electionMillis, LongSupplier nanos) {
        this.self = self;
        this.linked = linked;
        this.handover = handover;
        this.electionMillis = electionMillis;
        this.nanos = nanos;
    }

    /** Looks at each set this node serves (leads, with its store read back) and hands over those due. */
    void check(Collection<ReplicatedStore> served) {
        long now = nanos.getAsLong();
        Set<String> seen = new HashSet<>();
        for (ReplicatedStore store : served) {
            String name = store.setName();
            seen.add(name);
            String preferred = preferredOtherThanSelf(store);
            if (preferred == null || !fit(store, preferred)) {
                fitSince.remove(name);
                continue;
            }
            long since = fitSince.computeIfAbsent(name, n -> now);
            Long asked = askedAt.get(name);
            if (now - since < TimeUnit.MILLISECONDS.toNanos(STEADY_MILLIS)
                    || (asked != null && now - asked < TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS))
                    || pending.contains(name)) {
                continue;
            }
            askedAt.put(name, now);
            handOver(store, preferred);
        }
        fitSince.keySet().retainAll(seen); // sets not led here any more start afresh
    }

    private String preferredOtherThanSelf(ReplicatedStore store) {
        ReplicaSet set = store.set();
        if (set == null
                || set.preferredLeader() == null
                || set.preferredLeader().equals(self)) {
            return null;
        }
        return set.preferredLeader();
    }

    /** Whether the node is linked to this one, answers the set's appender and has (nearly) every entry. */
    private boolean fit(ReplicatedStore store, String node) {
        if (!linked.test(node)) {
            return false;
        }
        for (ReplicatedStore.Follower f : store.followers()) {
            if (f.node().equals(node)) {
                return f.lagEntries() <= MAX_LAG_ENTRIES && f.silentMillis() < electionMillis;
            }
        }
        return false;
    }

    private void handOver(ReplicatedStore store, String to) {
        String name = store.setName();
        long lag = store.followers().stream()
                .filter(f -> f.node().equals(to))
                .mapToLong(ReplicatedStore.Follower::lagEntries)
                .findFirst()
                .orElse(-1);
        LOG.info(
                "replica set {}: handing its leadership to its preferred leader {} ({} entries behind)", name, to, lag);
        pending.add(name);
        handover.holding(name, true);
        long started = nanos.getAsLong();
        // never completes exceptionally: the outcome is logged, and the next check tries again if need be
        var unused = store.transferLeadership(to, 2 * electionMillis).thenAccept(moved -> {
            pending.remove(name);
            handover.holding(name, false);
            long took = TimeUnit.NANOSECONDS.toMillis(nanos.getAsLong() - started);
            if (moved) {
                LOG.info("replica set {}: {} leads it again, handed over in {} ms", name, to, took);
            } else {
                LOG.info(
                        "replica set {}: leadership not handed to {} (after {} ms); trying again later",
                        name,
                        to,
                        took);
            }
        });
    }
}
