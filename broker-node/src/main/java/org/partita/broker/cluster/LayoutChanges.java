package org.partita.broker.cluster;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's part in changing a clustered queue's partition count or hosting nodes, so that no key
 * is reordered: a key's messages under the new layout may live on another node than its earlier
 * ones, so they are delivered only once nothing of the old layout is left anywhere.
 *
 * <ol>
 *   <li>The node asked for the change has the cluster agree that it began ({@link LayoutChange}).
 *       Every node, on applying that, holds the queue's sends ({@link HeldSends}): they wait,
 *       unconfirmed and in order, instead of being routed.</li>
 *   <li>Each node marks {@link LayoutChange.Phase#FORWARDED} once nothing of the queue waits in its
 *       store-and-forward logs: from then on no message of the queue moves between nodes.</li>
 *   <li>Once every node forwarded, each marks {@link LayoutChange.Phase#DRAINED} when its part of the
 *       queue holds nothing (every message delivered and acknowledged, dead-lettered or expired).</li>
 *   <li>Once every node drained, the node asked commits the new definition, then the end of the
 *       change. Every node applies the definition, then lets the held sends go, routed by it.</li>
 * </ol>
 *
 * If that does not happen within the cluster's {@code relayoutTimeoutMillis} (a node is down, a
 * partition has no consumer), the node asked ends the change without a new definition: the held
 * sends go by the old layout and the request fails naming the nodes that were not done. Should that
 * node be lost meanwhile, any other node ends the change {@link #ORPHAN_MARGIN_MILLIS} after the timeout,
 * when that node cannot be committing the new definition any more.
 */
final class LayoutChanges {
    private static final Logger LOG = LoggerFactory.getLogger(LayoutChanges.class);
    private static final long POLL_MILLIS = 50;
    /**
     * How long after the timeout the other nodes end a change whose asking node went silent. That
     * node commits the new definition only before the timeout, but the commit may retry for up to
     * {@code ClusterMetadata.CHANGE_TIMEOUT_MILLIS} (10 s): ending the change earlier could let a
     * late new definition follow the end, after sends were let go by the old layout.
     */
    static final long ORPHAN_MARGIN_MILLIS = 15_000;
    /** How soon a node tries again to end a change whose end the cluster did not agree (no leader then). */
    static final long END_RETRY_MILLIS = 1_000;

    /** What a node knows of its own part of a queue. */
    interface Drain {
        /** Nothing of the queue waits in this node's store-and-forward logs. */
        boolean forwarded(String queue);

        /** This node's part of the queue holds no message. */
        boolean drained(String queue);
    }

    /**
     * What the cluster agreed and how to ask it to agree more: {@link ClusterMetadata} on a node, an
     * interface so that a unit test can stand in for the consensus group ({@code LayoutChangesTest}).
     * What is agreed comes back through {@link #changeAgreed} and {@link #markAgreed}.
     */
    interface Agreement {
        /** The agreed definition of a clustered queue, or null if there is none. */
        String queue(String name);

        /** Defines or changes a clustered queue; completes once a majority committed it. */
        CompletableFuture<Void> defineQueue(String name, String options);

        /** The layout change of a queue in progress as agreed so far, or null. */
        String layoutChange(String queue);

        /** Begins ({@code change} not null) or ends (null) a change of a queue's layout, once agreed. */
        CompletableFuture<Void> layoutChange(String queue, String change);

        /** Tells every node how far this one got in a queue's layout change. */
        CompletableFuture<Void> layoutMark(String queue, String node, String mark);
    }

    private final String self;
    private final List<String> members;
    private final long timeoutMillis;
    private final ScheduledExecutorService timer;
    /** Null while the node has not joined the consensus group yet. */
    private final Supplier<? extends Agreement> metadata;

    private final Drain drain;
    private final Map<String, HeldSends> held = new ConcurrentHashMap<>();
    private final Map<String, Watch> watches = new ConcurrentHashMap<>();
    private final Map<String, Request> requests = new ConcurrentHashMap<>();

    LayoutChanges(
            String self,
            List<String> members,
            long timeoutMillis,
            ScheduledExecutorService timer,
            Supplier<? extends Agreement> metadata,
            Drain drain) {
        this.self = self;
        this.members = List.copyOf(members);
        this.timeoutMillis = timeoutMillis;
        this.timer = timer;
        this.metadata = metadata;
        this.drain = drain;
    }

    boolean holdsSends(String queue) {
        HeldSends h = held.get(queue);
        return h != null && h.holding();
    }

    boolean holdSend(String queue, Runnable send) {
        HeldSends h = held.get(queue);
        return h != null && h.hold(send);
    }

    /** Sends held for a queue now (the admin view). */
    int heldCount(String queue) {
        HeldSends h = held.get(queue);
        return h == null ? 0 : h.size();
    }

    /** Asks the cluster to change a queue's layout to {@code options}; completes once it did (or failed). */
    CompletableFuture<Void> request(String queue, String options) {
        Agreement md = metadata.get();
        String inProgress = md.layoutChange(queue);
        if (inProgress != null) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("queue '" + queue + "' is already changing" + " its layout (to "
                            + LayoutChange.decode(inProgress).options() + "); wait until that change is done"));
        }
        Request r = new Request(new LayoutChange(self + "-" + UUID.randomUUID(), options));
        if (requests.putIfAbsent(queue, r) != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("queue '" + queue + "' is already changing"
                    + " its layout from this node; wait until that change is done"));
        }
        LOG.info(
                "queue {}: changing its layout to {}; its sends wait until what the old layout holds has drained",
                queue,
                options);
        md.layoutChange(queue, r.change.encode()).whenComplete((v, t) -> {
            if (t != null) {
                requests.remove(queue, r);
                r.done.completeExceptionally(t.getCause() != null ? t.getCause() : t);
            }
        });
        timer.schedule(() -> giveUp(queue, r), timeoutMillis, TimeUnit.MILLISECONDS);
        return r.done;
    }

    // ---- what the cluster agreed (on the consensus thread: keep it short) -------------------------

    /** A change of {@code queue}'s layout began ({@code encoded} not null) or ended (null). */
    void changeAgreed(String queue, String encoded) {
        if (encoded != null) {
            LayoutChange c = LayoutChange.decode(encoded);
            Request mine = requests.get(queue);
            if (mine != null && !mine.change.id().equals(c.id())) { // another node's request overtook this one's
                requests.remove(queue, mine);
                mine.done.completeExceptionally(new IllegalStateException("queue '" + queue + "' is changing its layout"
                        + " to " + c.options() + " as another node asked at the same time; this change was not made"));
            }
            held.compute(queue, (k, h) -> h != null && h.holding() ? h : new HeldSends());
            Watch w = new Watch(c, System.nanoTime());
            watches.put(queue, w);
            if (c.id().startsWith(self + "-") && mine == null) {
                // asked by this node before it restarted: nobody else would commit it, nor end it before
                // the timeout and a margin. Ending it now is safe: whichever definition is agreed (the new
                // one only once everything had drained) is the one the held sends go by.
                w.abandoning = true;
                LOG.warn(
                        "queue {}: this node asked for layout change {} before it restarted; abandoning it",
                        queue,
                        c.id());
                timer.execute(() -> endOnceJoined(queue, c.id()));
            }
            timer.execute(() -> poll(queue, w));
            return;
        }
        Watch ended = watches.remove(queue);
        HeldSends h = held.get(queue);
        if (h != null) {
            int n = h.size();
            h.release(); // in order, routed by the definition agreed now (the new one, or the old one if abandoned)
            held.remove(queue, h);
            LOG.info(
                    "queue {}: its layout change ended{}; {} held sends go on",
                    queue,
                    ended == null ? "" : " after " + ended.elapsedMillis() + " ms",
                    n);
        }
        if (ended != null) {
            Request r = requests.get(queue);
            if (r != null && r.change.id().equals(ended.change.id())) {
                requests.remove(queue, r);
                String agreed = metadata.get().queue(queue);
                if (r.change.options().equals(agreed)) {
                    r.done.complete(null);
                } else {
                    r.done.completeExceptionally(new IllegalStateException("queue '" + queue + "' keeps its layout: "
                            + (r.reason != null ? r.reason : "the change was abandoned")));
                }
            }
        }
    }

    /** A node said how far it got in a queue's layout change. */
    void markAgreed(String queue, String node, String encoded) {
        Watch w = watches.get(queue);
        if (w == null) {
            return;
        }
        LayoutChange.Mark m = LayoutChange.Mark.decode(encoded);
        if (m.id().equals(w.change.id())) {
            w.marks.merge(node, m.phase(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
            timer.execute(() -> step(queue, w)); // at once, rather than at the next poll
        }
    }

    // ---- this node's progress (on the timer thread) --------------------------------------------------

    /** Ends a change once this node has joined the consensus group (it may still be reading its log back). */
    private void endOnceJoined(String queue, String id) {
        Agreement md = metadata.get();
        if (md == null) {
            timer.schedule(() -> endOnceJoined(queue, id), POLL_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            endIf(md, queue, id);
        }
    }

    /** Steps through one change every {@link #POLL_MILLIS} until it ends. */
    private void poll(String queue, Watch w) {
        if (watches.get(queue) != w) {
            return;
        }
        step(queue, w);
        timer.schedule(() -> poll(queue, w), POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** What this node can do next in a change: say how far it got, finish it, or end it for a lost node. */
    private void step(String queue, Watch w) {
        Agreement md = metadata.get();
        if (md == null || watches.get(queue) != w) { // still reading the Raft log back at start, or over
            return;
        }
        if (!w.forwardedSaid && drain.forwarded(queue)) {
            w.forwardedSaid = true;
            mark(md, queue, w, LayoutChange.Phase.FORWARDED);
        }
        if (w.forwardedSaid && !w.drainedSaid && everyNode(w, LayoutChange.Phase.FORWARDED) && drain.drained(queue)) {
            w.drainedSaid = true;
            mark(md, queue, w, LayoutChange.Phase.DRAINED);
        }
        Request r = requests.get(queue);
        boolean mine = r != null && r.change.id().equals(w.change.id());
        if (mine && !w.everyForwardedLogged && everyNode(w, LayoutChange.Phase.FORWARDED)) {
            w.everyForwardedLogged = true;
            LOG.info(
                    "queue {}: every node holds its sends and has forwarded what it had, {} ms into the layout change;"
                            + " now the old layout drains",
                    queue,
                    w.elapsedMillis());
        }
        if (mine && everyNode(w, LayoutChange.Phase.DRAINED)) {
            finish(md, queue, r, w);
            return;
        }
        if (r == null && !w.abandoning && w.elapsedMillis() > timeoutMillis + ORPHAN_MARGIN_MILLIS) {
            // the node that asked for it should have ended it by now: it was lost
            w.abandoning = true;
            LOG.warn(
                    "queue {}: the layout change {} asked by another node did not end in time; abandoning it",
                    queue,
                    w.change.id());
            endIf(md, queue, w.change.id());
        }
    }

    private void mark(Agreement md, String queue, Watch w, LayoutChange.Phase phase) {
        md.layoutMark(queue, self, new LayoutChange.Mark(w.change.id(), phase).encode())
                .whenComplete((v, t) -> {
                    if (t != null) { // said again on the next poll
                        LOG.warn("queue {}: could not tell the cluster this node {}: {}", queue, phase, t.getMessage());
                        if (phase == LayoutChange.Phase.FORWARDED) {
                            w.forwardedSaid = false;
                        } else {
                            w.drainedSaid = false;
                        }
                    }
                });
    }

    private boolean everyNode(Watch w, LayoutChange.Phase phase) {
        for (String m : members) {
            LayoutChange.Phase p = w.marks.get(m);
            if (p == null || p.compareTo(phase) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Every node drained: the new definition, then the end of the change. */
    private void finish(Agreement md, String queue, Request r, Watch w) {
        synchronized (r) {
            if (r.state != Request.State.WAITING) {
                return;
            }
            r.state = Request.State.FINISHING;
        }
        LOG.info(
                "queue {}: the old layout has drained on every node, {} ms into the layout change; committing the"
                        + " new one",
                queue,
                w.elapsedMillis());
        md.defineQueue(queue, r.change.options())
                .thenCompose(v -> md.layoutChange(queue, null))
                .whenComplete((v, t) -> {
                    if (t != null) {
                        LOG.warn("queue {}: could not commit its new layout: {}", queue, t.getMessage());
                        r.reason = "the new layout could not be committed: " + t.getMessage();
                        endIf(md, queue, r.change.id());
                    }
                });
    }

    /** The change took too long: it ends without a new layout. */
    private void giveUp(String queue, Request r) {
        synchronized (r) {
            if (r.state != Request.State.WAITING) {
                return;
            }
            r.state = Request.State.GIVING_UP;
        }
        Watch w = watches.get(queue);
        // those that held the others up: the nodes not heard from, else the nodes that had not drained
        boolean ours = w != null && w.change.id().equals(r.change.id());
        List<String> late = new java.util.ArrayList<>();
        for (String m : members) {
            if (!ours || w.marks.get(m) == null) {
                late.add(m + " (not heard from: down, or its store-and-forward log for the queue not empty)");
            }
        }
        if (late.isEmpty()) {
            for (String m : members) {
                if (w.marks.get(m) != LayoutChange.Phase.DRAINED) {
                    late.add(m + " (its part of the queue still held messages not consumed and acknowledged)");
                }
            }
        }
        r.reason = "the change did not complete within " + timeoutMillis + " ms (cluster.relayoutTimeoutMillis),"
                + " waiting for " + String.join(", ", late) + "; the sends held meanwhile went by the old layout";
        LOG.warn("queue {}: {}", queue, r.reason);
        if (!endIf(metadata.get(), queue, r.change.id()) && requests.remove(queue, r)) {
            // its beginning was never agreed: nothing to end
            r.done.completeExceptionally(
                    new IllegalStateException("queue '" + queue + "' keeps its layout: " + r.reason));
        }
    }

    /** Ends the change {@code id} of {@code queue} if it is still the one in progress; false if it is not. */
    private boolean endIf(Agreement md, String queue, String id) {
        String current = md.layoutChange(queue);
        if (current == null || !LayoutChange.decode(current).id().equals(id)) {
            return false;
        }
        md.layoutChange(queue, null).whenComplete((v, t) -> {
            if (t != null) {
                Request r = requests.remove(queue);
                if (r != null) {
                    r.done.completeExceptionally(new IllegalStateException("queue '" + queue + "': " + r.reason
                            + "; and the change could not be ended yet (" + t.getMessage() + "): this node tries"
                            + " again every " + END_RETRY_MILLIS + " ms, and the others end it by themselves "
                            + ORPHAN_MARGIN_MILLIS + " ms after the timeout"));
                }
                // the held sends wait for the end: try again (as long as it is the change in progress),
                // rather than leave them to the other nodes' orphan margin
                LOG.warn(
                        "queue {}: could not end its layout change yet ({}); trying again in {} ms",
                        queue,
                        t.getMessage(),
                        END_RETRY_MILLIS);
                Runnable again = () -> endIf(metadata.get(), queue, id);
                var unused = timer.schedule(again, END_RETRY_MILLIS, TimeUnit.MILLISECONDS);
            }
        });
        return true;
    }

    /** A change this node asked for. */
    private static final class Request {
        enum State {
            WAITING,
            FINISHING,
            GIVING_UP
        }

        final LayoutChange change;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        State state = State.WAITING;
        volatile String reason;

        Request(LayoutChange change) {
            this.change = change;
        }
    }

    /** A change in progress as this node follows it. */
    private static final class Watch {
        final LayoutChange change;
        final long since;
        final Map<String, LayoutChange.Phase> marks = new ConcurrentHashMap<>();
        volatile boolean forwardedSaid;
        volatile boolean drainedSaid;
        volatile boolean abandoning;
        boolean everyForwardedLogged;

        Watch(LayoutChange change, long since) {
            this.change = change;
            this.since = since;
        }

        long elapsedMillis() {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
        }
    }
}
