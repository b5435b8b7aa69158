package org.partita.broker.core.dispatch;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.partita.broker.core.partition.PartitionAssignor;
import org.partita.broker.core.partition.PartitionFigures;
import org.partita.broker.core.partition.PartitionOwnership;
import org.partita.broker.core.partition.PartitionScope;
import org.partita.broker.core.queue.QueueCounters;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.broker.core.queue.QueueOptions;

/**
 * A key-partitioned queue: a message goes to partition {@code hash(key) mod P} (the next one in turn
 * when it has no key), and each partition is delivered, in arrival order, to one owner consumer at a time.
 *
 * <p>When consumers come or go, partitions without a target are given one at once (a new queue's
 * first consumer starts at once; a departed owner's partitions are not left stranded), and so are
 * partitions with nothing in flight, since moving them cannot reorder anything. Consumers that
 * attach while no partition has an owner, or within {@link #SETTLE_WINDOW_MILLIS} of the previous
 * change, arrive together: the whole even spread is made at once, busy partitions handed off
 * through {@link PartitionOwnership} (the old owner's client gives back what it only prefetched, so
 * that takes milliseconds), and so are partitions whose owner a higher priority or a preferred tier
 * has made ineligible. Other moves between eligible consumers wait until the set has been
 * stable for the rebalance delay, so a consumer that restarts does not shuffle every key twice.
 */
public final class PartitionedQueueEngine implements DispatchEngine {
    /**
     * Consumers whose attach (or detach) follows the previous change within this window are taken
     * as started together and spread at once (bounded by the queue's rebalance delay).
     */
    static final long SETTLE_WINDOW_MILLIS = 1_000;

    private final Host host;
    private final QueueOptionsSource options;
    private final PartitionScope scope;
    private final Backlog[] backlogs;
    private final PartitionOwnership[] owners;
    private final List<Set<QueueEntry>> inFlight;
    private final List<ConsumerRef> consumers = new ArrayList<>();
    private long rebalanceAt = Long.MAX_VALUE;
    private long lastChangeAt;
    private boolean changedBefore;
    /** Which hosted partition the next unkeyed message goes to (counted on, modulo their number). */
    private int unkeyedTurn;
    /** What each consumer was last told it owns, to send only changes. */
    private final java.util.Map<ConsumerRef, java.util.Set<Integer>> told = new java.util.HashMap<>();

    private boolean ownersDirty;
    private int scanStart;
    /** Deliveries made by this engine's passes, to tell a pass that delivered from one that did not. */
    private long delivered;

    private java.util.function.IntPredicate held = p -> false;
    /** False for an old layout draining after a partition count change: clients hear of the new one only. */
    private boolean announces = true;

    /** The queue's current options (they may change while it runs). */
    public interface QueueOptionsSource {
        QueueOptions get();
    }

    public PartitionedQueueEngine(Host host, int partitions, QueueOptionsSource options) {
        this(host, partitions, options, PartitionScope.ALL);
    }

    /** @param scope the partitions this node hosts (the others stay empty and unowned here), and owner preferences */
    public PartitionedQueueEngine(Host host, int partitions, QueueOptionsSource options, PartitionScope scope) {
        this.host = host;
        this.options = options;
        this.scope = scope;
        this.backlogs = new Backlog[partitions];
        this.owners = new PartitionOwnership[partitions];
        this.inFlight = new ArrayList<>(partitions);
        for (int i = 0; i < partitions; i++) {
            backlogs[i] = new Backlog(Backlog.BY_ARRIVAL);
            owners[i] = new PartitionOwnership();
            inFlight.add(new LinkedHashSet<>());
        }
    }

    /** This layout is being replaced: its partitions are no longer announced to consumers. */
    public void retire() {
        announces = false;
    }

    /** Partitions for which {@code held} is true deliver nothing (their keys still drain elsewhere). */
    public void hold(java.util.function.IntPredicate held) {
        this.held = held;
    }

    public int partitionCount() {
        return backlogs.length;
    }

    int partitionOf(QueueEntry e) {
        if (e.partition() < 0) {
            int keyed = e.message().partition(backlogs.length);
            int placed = e.message().placedPartition();
            e.partition(keyed >= 0 ? keyed : placed >= 0 && placed < backlogs.length ? placed : nextHosted());
        }
        return e.partition();
    }

    /**
     * An unkeyed message goes to the next partition this node hosts, in turn: message by message
     * over the partitions, so that each gets the same share (a node hosting none of a clustered
     * queue forwards its unkeyed messages partition by partition, and each host spreads what it
     * receives the same way).
     */
    private int nextHosted() {
        int[] hosted = hostedPartitions();
        int turn = unkeyedTurn++ & Integer.MAX_VALUE;
        return hosted.length == 0 ? turn % backlogs.length : hosted[turn % hosted.length];
    }

    private int[] hostedPartitions() {
        int n = 0;
        int[] out = new int[backlogs.length];
        for (int p = 0; p < backlogs.length; p++) {
            if (scope.hosted(p)) {
                out[n++] = p;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** The even, sticky spread of the hosted partitions over the eligible consumers; null for the others. */
    private ConsumerRef[] spread() {
        int[] hosted = hostedPartitions();
        ConsumerRef[] current = new ConsumerRef[hosted.length];
        for (int i = 0; i < hosted.length; i++) {
            current[i] = owners[hosted[i]].target();
        }
        ConsumerRef[] assigned = PartitionAssignor.assign(eligible(), current);
        ConsumerRef[] target = new ConsumerRef[owners.length];
        for (int i = 0; i < hosted.length; i++) {
            target[hosted[i]] = assigned[i];
        }
        return target;
    }

    @Override
    public void add(QueueEntry e) {
        backlogs[partitionOf(e)].add(e);
    }

    /**
     * The partitions this node hosts changed (a replica set's leadership came or went): newly hosted
     * partitions get owners at once; a partition no longer hosted loses its owner here.
     */
    public void hostingChanged(long now) {
        for (int p = 0; p < owners.length; p++) {
            if (!scope.hosted(p) && owners[p].target() != null) {
                owners[p] = new PartitionOwnership();
            }
        }
        rebalance(now);
    }

    /**
     * Takes every waiting entry of the partitions {@code which} out (their replica set is led
     * elsewhere now, whose store keeps them): returned to the caller, which lets them go.
     */
    public List<QueueEntry> takeWaiting(java.util.function.IntPredicate which) {
        List<QueueEntry> out = new ArrayList<>();
        for (int p = 0; p < backlogs.length; p++) {
            if (which.test(p)) {
                backlogs[p].forEach(out::add);
                backlogs[p] = new Backlog(Backlog.BY_ARRIVAL);
            }
        }
        return out;
    }

    @Override
    public void consumerAdded(ConsumerRef c, long now) {
        consumers.add(c);
        membershipChanged(now);
    }

    @Override
    public void consumerRemoved(ConsumerRef c, long now) {
        consumers.remove(c);
        long maxHandoff = options.get().maxHandoffMillis();
        for (int p = 0; p < owners.length; p++) {
            owners[p].consumerGone(c, now, !inFlight.get(p).isEmpty(), maxHandoff);
        }
        membershipChanged(now);
    }

    private void membershipChanged(long now) {
        ownersDirty = true;
        long delay = options.get().rebalanceDelayMillis();
        boolean together =
                !anyOwner() || (changedBefore && now - lastChangeAt <= Math.min(SETTLE_WINDOW_MILLIS, delay));
        changedBefore = true;
        lastChangeAt = now;
        if (together) {
            rebalance(now);
        } else {
            moveWhatIsFree(now);
            rebalanceAt = now + delay;
        }
    }

    private boolean anyOwner() {
        for (PartitionOwnership o : owners) {
            if (o.target() != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Partitions with nowhere to go, partitions with nothing in flight, and partitions whose owner is
     * no longer eligible go to their place in the even spread now; a busy partition moving between
     * eligible consumers waits for the rebalance delay. An owner stops being eligible when a consumer
     * of a higher priority, or of a preferred tier (on a cluster, the partition's own node after a
     * consumer of another node stood in), is present: the delay exists so that equals do not shuffle
     * keys back and forth, not to keep a standby or a remote stand-in working while the consumer the
     * rules prefer waits (the handoff keeps each key in order either way).
     */
    private void moveWhatIsFree(long now) {
        ConsumerRef[] target = spread();
        Set<ConsumerRef> eligible = new java.util.HashSet<>(eligible());
        long maxHandoff = options.get().maxHandoffMillis();
        for (int p = 0; p < owners.length; p++) {
            ConsumerRef owner = owners[p].target();
            boolean free = owner == null || inFlight.get(p).isEmpty() || !eligible.contains(owner);
            if (target[p] != null && owner != target[p] && free) {
                owners[p].moveTo(target[p], now, maxHandoff);
            }
        }
    }

    /** After the rebalance delay: the even, sticky spread, with handoffs for partitions that move. */
    private void rebalance(long now) {
        rebalanceAt = Long.MAX_VALUE;
        ownersDirty = true;
        ConsumerRef[] target = spread();
        long maxHandoff = options.get().maxHandoffMillis();
        for (int p = 0; p < owners.length; p++) {
            if (target[p] != null && owners[p].target() != target[p]) {
                owners[p].moveTo(target[p], now, maxHandoff);
            }
        }
    }

    /**
     * Only consumers of the highest priority present own partitions; the others are standbys. Among
     * them, the most preferred tier of the scope (on a cluster: this node's consumers and those of
     * nodes that host nothing, before consumers of other hosting nodes), this node's own first; when
     * they are fewer than the partitions here, spare consumers of other hosting nodes fill the gap.
     */
    private List<ConsumerRef> eligible() {
        int top = Integer.MIN_VALUE;
        int bestTier = Integer.MAX_VALUE;
        for (ConsumerRef c : consumers) {
            if (scope.tier(c) != PartitionScope.EXCLUDED) {
                top = Math.max(top, c.priority());
            }
        }
        for (ConsumerRef c : consumers) {
            int tier = scope.tier(c);
            if (tier != PartitionScope.EXCLUDED && c.priority() == top) {
                bestTier = Math.min(bestTier, tier);
            }
        }
        List<ConsumerRef> out = new ArrayList<>(consumers.size());
        for (ConsumerRef c : consumers) {
            if (c.priority() == top && scope.tier(c) == bestTier && c.origin() == null) {
                out.add(c);
            }
        }
        for (ConsumerRef c : consumers) {
            if (c.priority() == top && scope.tier(c) == bestTier && c.origin() != null) {
                out.add(c);
            }
        }
        if (bestTier == PartitionScope.PREFERRED) {
            addSpareStandIns(out, top);
        }
        return out;
    }

    /**
     * Fewer preferred consumers than partitions here, while consumers of other hosting nodes get no
     * partition there (more consumers than partitions on their node): as many of those as this node
     * has partitions to spare own one too, so that no consumer of the cluster idles while another
     * holds two. Their own node says when it gives them none ({@link ConsumerRef#spare()}); that
     * depends on its assignment only, never on this one, so the choice does not swing back and forth.
     * Those already owning a partition here come first, so the choice is sticky.
     */
    private void addSpareStandIns(List<ConsumerRef> eligible, int top) {
        int room = hostedPartitions().length - eligible.size();
        if (room <= 0) {
            return;
        }
        List<ConsumerRef> spare = new ArrayList<>();
        for (ConsumerRef c : consumers) {
            if (c.priority() == top && c.spare() && scope.tier(c) == PartitionScope.PREFERRED + 1) {
                spare.add(c);
            }
        }
        spare.sort(java.util.Comparator.comparing(c -> !ownsHere(c))); // stable: attach order otherwise
        eligible.addAll(spare.subList(0, Math.min(room, spare.size())));
    }

    private boolean ownsHere(ConsumerRef c) {
        for (PartitionOwnership o : owners) {
            if (o.target() == c) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void consumerChanged(ConsumerRef c, long now) {
        membershipChanged(now); // a priority change can change who is eligible
    }

    @Override
    public void settled(QueueEntry e, long now) {
        int p = e.partition();
        if (p >= 0
                && inFlight.get(p).remove(e)
                && owners[p].tick(now, !inFlight.get(p).isEmpty())) {
            ownersDirty = true;
            takeBack(p);
        }
    }

    @Override
    public long dispatch(long now) {
        if (now >= rebalanceAt) {
            rebalance(now);
        }
        long next = rebalanceAt;
        for (int p = 0; p < owners.length; p++) {
            if (owners[p].tick(now, !inFlight.get(p).isEmpty())) {
                ownersDirty = true;
                takeBack(p);
            }
            next = Math.min(next, owners[p].handoffDeadline());
        }
        tellOwners(); // before delivering: a new owner hears of its partition before its messages
        // Start each pass at the next partition, so a consumer owning several partitions is served
        // from all of them in turn and one partition's retries never keep the others waiting. Only a
        // pass that delivers moves the start on: one that delivers nothing (its consumer held by a
        // recover, or out of room) must not decide which partition the next pass serves first.
        int start = (scanStart + 1) % backlogs.length;
        long deliveredBefore = delivered;
        for (int i = 0; i < backlogs.length; i++) {
            int p = (start + i) % backlogs.length;
            ConsumerRef owner = owners[p].deliverable();
            if (owner == null || backlogs[p].isEmpty() || held.test(p) || !scope.deliverable(p)) {
                continue;
            }
            // A message the owner's byte capacity cannot take yet stops the partition: skipping it
            // would deliver a later message of the same key first. A selector mismatch skips.
            next = Math.min(
                    next,
                    BacklogScan.deliver(
                            backlogs[p],
                            now,
                            new TrackingHost(inFlight.get(p)),
                            e -> owner.accepts(e) ? owner : null,
                            owner::hasRoom,
                            owner::fits));
        }
        if (delivered != deliveredBefore) {
            scanStart = start;
        }
        return next;
    }

    /** Tells each consumer whose owned partitions changed (assign and revoke callbacks on the client). */
    private void tellOwners() {
        if (!ownersDirty || !announces) {
            return;
        }
        ownersDirty = false;
        java.util.Map<ConsumerRef, java.util.Set<Integer>> now = new java.util.HashMap<>();
        for (ConsumerRef c : consumers) {
            now.put(c, new java.util.TreeSet<>());
        }
        for (int p = 0; p < owners.length; p++) {
            ConsumerRef o = owners[p].deliverable();
            if (o != null && now.containsKey(o)) {
                now.get(o).add(p);
            }
        }
        told.keySet().retainAll(now.keySet());
        for (java.util.Map.Entry<ConsumerRef, java.util.Set<Integer>> e : now.entrySet()) {
            if (!e.getValue().equals(told.get(e.getKey()))) {
                told.put(e.getKey(), e.getValue());
                e.getKey()
                        .partitionsChanged(e.getValue().stream()
                                .mapToInt(Integer::intValue)
                                .toArray());
            }
        }
    }

    /** The handoff deadline passed: what the old owner still holds comes back, redelivered, for the new one. */
    private void takeBack(int p) {
        host.handedOff(p);
        Set<QueueEntry> held = inFlight.get(p);
        List<QueueEntry> revoked = new ArrayList<>(held);
        held.clear();
        for (QueueEntry e : revoked) {
            host.revoke(e);
        }
    }

    /** Wraps the queue's host to record each delivery as in flight for its partition. */
    private final class TrackingHost implements Host {
        private final Set<QueueEntry> held;

        TrackingHost(Set<QueueEntry> held) {
            this.held = held;
        }

        @Override
        public boolean isExpired(QueueEntry e, long now) {
            return host.isExpired(e, now);
        }

        @Override
        public void expire(QueueEntry e) {
            host.expire(e);
        }

        @Override
        public void deliver(ConsumerRef c, QueueEntry e) {
            delivered++;
            held.add(e);
            host.deliver(c, e);
        }

        @Override
        public void revoke(QueueEntry e) {
            host.revoke(e);
        }
    }

    @Override
    public Iterable<QueueEntry> waiting() {
        List<QueueEntry> all = new ArrayList<>();
        for (Backlog b : backlogs) {
            b.forEach(all::add);
        }
        all.sort(Backlog.BY_ARRIVAL);
        return all;
    }

    @Override
    public int waitingCount() {
        int n = 0;
        for (Backlog b : backlogs) {
            n += b.size();
        }
        return n;
    }

    @Override
    public boolean remove(QueueEntry e) {
        return e.partition() >= 0 && backlogs[e.partition()].remove(e);
    }

    @Override
    public void clear() {
        for (Backlog b : backlogs) {
            b.clear();
        }
        consumers.clear();
    }

    /**
     * Figures of one partition, for admin and metrics. Its delivered count and rate are left at 0:
     * the queue's {@link QueueCounters} count them, over the last minute, and fill them in.
     */
    public PartitionFigures.Current figures(int p, long now) {
        QueueEntry oldest = backlogs[p].first();
        long age = oldest == null ? -1 : oldest.message().ageMillis(now);
        ConsumerRef owner = owners[p].owner();
        return new PartitionFigures.Current(
                p,
                backlogs[p].size(),
                inFlight.get(p).size(),
                owner == null ? null : owner.toString(),
                owners[p].state().name(),
                age,
                0,
                0.0,
                false);
    }
}
