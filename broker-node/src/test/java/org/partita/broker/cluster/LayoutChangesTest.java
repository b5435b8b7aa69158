package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A clustered queue's change of layout as three nodes carry it out, without nodes: each node's
 * {@link LayoutChanges} over one stand-in for the consensus group ({@link TestCluster}, which applies
 * what is agreed on every node in order) and a timer whose time the test moves ({@link ManualTimer}).
 * What the cluster relies on: sends are held on every node until every node forwarded and then
 * drained, the new definition is committed before the change ends and the held sends go in order by
 * it; a change that times out, or whose definition cannot be committed, ends without it and names
 * why; a node that asked and restarted abandons its change; a lost mark is said again.
 */
class LayoutChangesTest {
    private static final long TIMEOUT_MILLIS = 1_000;
    private static final String QUEUE = "orders";
    private static final String OLD = "partitions=2";
    private static final String NEW = "partitions=4";

    private final ManualTimer timer = new ManualTimer();
    private final TestCluster cluster = new TestCluster(timer);
    private final Map<String, TestDrain> drains = new HashMap<>();
    private final LayoutChanges a = node("a");
    private final LayoutChanges b = node("b");
    private final LayoutChanges c = node("c");

    LayoutChangesTest() {
        cluster.queues.put(QUEUE, OLD);
    }

    private LayoutChanges node(String name) {
        TestDrain d = new TestDrain();
        drains.put(name, d);
        LayoutChanges n =
                new LayoutChanges(name, List.of("a", "b", "c"), TIMEOUT_MILLIS, timer.service(), () -> cluster, d);
        cluster.nodes.add(n);
        return n;
    }

    @Test
    void sendsWaitOnEveryNodeUntilEveryNodeForwardedAndDrainedThenGoByTheNewLayout() {
        CompletableFuture<Void> done = a.request(QUEUE, NEW);
        timer.runDue();
        for (LayoutChanges n : List.of(a, b, c)) {
            assertTrue(n.holdsSends(QUEUE));
        }
        List<String> sent = new ArrayList<>();
        assertTrue(b.holdSend(QUEUE, () -> sent.add("s1 by " + cluster.queue(QUEUE))));
        assertTrue(b.holdSend(QUEUE, () -> sent.add("s2 by " + cluster.queue(QUEUE))));
        assertEquals(2, b.heldCount(QUEUE));

        everyNode(true, false);
        timer.advance(200);
        assertEquals(Map.of("a", "FORWARDED", "b", "FORWARDED", "c", "FORWARDED"), cluster.phases(QUEUE));
        drains.get("a").drained = true;
        drains.get("b").drained = true;
        timer.advance(200);
        assertFalse(done.isDone(), "c still holds messages of the old layout");
        assertEquals(OLD, cluster.queue(QUEUE));
        assertTrue(sent.isEmpty());

        drains.get("c").drained = true;
        timer.advance(200);
        done.join();
        assertEquals(NEW, cluster.queue(QUEUE));
        assertEquals(List.of("s1 by " + NEW, "s2 by " + NEW), sent, "held sends go in order, by the new layout");
        int defined = cluster.agreed.indexOf("queue:" + QUEUE + "=" + NEW);
        int ended = cluster.agreed.indexOf("change:" + QUEUE + "=null");
        assertTrue(defined >= 0 && defined < ended, "defined before the change ends: " + cluster.agreed);
        for (LayoutChanges n : List.of(a, b, c)) {
            assertFalse(n.holdsSends(QUEUE));
            assertFalse(n.holdSend(QUEUE, () -> {}), "sends go straight through again");
        }
    }

    @Test
    void noNodeSaysItDrainedBeforeEveryNodeForwarded() {
        CompletableFuture<Void> done = a.request(QUEUE, NEW);
        everyNode(true, true);
        drains.get("c").forwarded = false; // something of the queue still waits in c's forward logs
        timer.advance(300);
        assertEquals(Map.of("a", "FORWARDED", "b", "FORWARDED"), cluster.phases(QUEUE));
        assertFalse(done.isDone());

        drains.get("c").forwarded = true;
        timer.advance(200);
        done.join();
        assertEquals(NEW, cluster.queue(QUEUE));
    }

    @Test
    void aChangeThatTimesOutWaitingForASilentNodeEndsWithoutTheNewLayoutAndNamesIt() {
        CompletableFuture<Void> done = a.request(QUEUE, NEW);
        timer.runDue();
        List<String> sent = new ArrayList<>();
        c.holdSend(QUEUE, () -> sent.add("by " + cluster.queue(QUEUE)));
        everyNode(true, true);
        drains.get("c").forwarded = false;
        timer.advance(TIMEOUT_MILLIS + 100);

        String why = failure(done);
        assertTrue(why.contains("c (not heard from"), why);
        assertFalse(why.contains("a (") || why.contains("b ("), why);
        assertEquals(OLD, cluster.queue(QUEUE));
        assertNull(cluster.changes.get(QUEUE), "the change ended");
        assertEquals(List.of("by " + OLD), sent, "the held send went by the old layout");
    }

    /**
     * The end of a change that timed out is not agreed at its first try (the Raft leader was lost a
     * moment before): the node asked tries again a second later, and the held sends go then, not after
     * the other nodes' orphan margin (15 s).
     */
    @Test
    void anEndTheClusterCouldNotAgreeIsTriedAgainAndTheHeldSendsGoASecondLater() {
        CompletableFuture<Void> done = a.request(QUEUE, NEW);
        timer.runDue();
        List<String> sent = new ArrayList<>();
        b.holdSend(QUEUE, () -> sent.add("by " + cluster.queue(QUEUE)));
        everyNode(true, true);
        drains.get("c").forwarded = false;
        cluster.refuse("change:" + QUEUE); // the beginning is agreed already: the end's first try fails
        timer.advance(TIMEOUT_MILLIS + 100);

        String why = failure(done);
        assertTrue(why.contains("could not be ended yet"), why);
        assertEquals(List.of(), sent, "held while the change stands");
        timer.advance(LayoutChanges.END_RETRY_MILLIS + 100);
        assertNull(cluster.changes.get(QUEUE), "ended by the next try");
        assertEquals(List.of("by " + OLD), sent);
    }

    @Test
    void aChangeThatTimesOutWaitingForANodeToDrainNamesThatNode() {
        CompletableFuture<Void> done = a.request(QUEUE, NEW);
        everyNode(true, true);
        drains.get("b").drained = false;
        timer.advance(TIMEOUT_MILLIS + 100);
        String why = failure(done);
        assertTrue(why.contains("b (its part of the queue still held messages"), why);
        assertFalse(why.contains("a (") || why.contains("c ("), why);
        assertEquals(OLD, cluster.queue(QUEUE));
    }

    @Test
    void aQueueAlreadyChangingRefusesAnotherChange() {
        CompletableFuture<Void> first = a.request(QUEUE, NEW);
        String fromSameNode = failure(a.request(QUEUE, "partitions=8"));
        assertTrue(fromSameNode.contains("already changing"), fromSameNode);
        timer.runDue();
        String fromOther = failure(b.request(QUEUE, "partitions=8"));
        assertTrue(fromOther.contains("already changing") && fromOther.contains(NEW), fromOther);

        everyNode(true, true);
        timer.advance(200);
        first.join();
        assertEquals(NEW, cluster.queue(QUEUE));
    }

    /**
     * Both are agreed, one after the other: each node that asked sees the other's overtake its own and
     * fails its request; the one agreed last, whose node no longer waits for it, is abandoned by that
     * node at once. Neither layout is made and no send stays held.
     */
    @Test
    void twoRequestsAtTheSameTimeBothFailAndNothingStaysHeld() {
        CompletableFuture<Void> fromA = a.request(QUEUE, NEW);
        CompletableFuture<Void> fromB = b.request(QUEUE, "partitions=8"); // before a's was agreed
        everyNode(true, true);
        List<String> sent = new ArrayList<>();
        timer.execute(() -> c.holdSend(QUEUE, () -> sent.add("by " + cluster.queue(QUEUE))));
        timer.advance(200);

        for (CompletableFuture<Void> f : List.of(fromA, fromB)) {
            String why = failure(f);
            assertTrue(why.contains("another node asked at the same time"), why);
        }
        assertNull(cluster.changes.get(QUEUE));
        assertEquals(OLD, cluster.queue(QUEUE));
        assertEquals(List.of("by " + OLD), sent);
        for (LayoutChanges n : List.of(a, b, c)) {
            assertFalse(n.holdsSends(QUEUE));
        }
    }

    @Test
    void aNodeThatAskedAndRestartedAbandonsItsChange() {
        TestCluster other = new TestCluster(timer);
        other.queues.put(QUEUE, OLD);
        LayoutChanges restarted = new LayoutChanges(
                "a", List.of("a", "b"), TIMEOUT_MILLIS, timer.service(), () -> other, new TestDrain());
        LayoutChanges peer = new LayoutChanges(
                "b", List.of("a", "b"), TIMEOUT_MILLIS, timer.service(), () -> other, new TestDrain());
        other.nodes.addAll(List.of(restarted, peer));

        other.layoutChange(QUEUE, new LayoutChange("a-before-the-restart", NEW).encode());
        List<String> sent = new ArrayList<>();
        List<Boolean> held = new ArrayList<>();
        // runs right after the change is agreed, before what the nodes do about it
        timer.execute(() -> held.add(peer.holdSend(QUEUE, () -> sent.add("by " + other.queue(QUEUE)))));
        timer.advance(100); // a ends the change it no longer waits for

        assertEquals(List.of(true), held, "the change began: b held its send");

        assertNull(other.changes.get(QUEUE));
        assertEquals(OLD, other.queue(QUEUE));
        assertEquals(List.of("by " + OLD), sent);
        assertFalse(peer.holdsSends(QUEUE));
    }

    @Test
    void aMarkTheClusterCouldNotAgreeIsSaidAgain() {
        cluster.refuse("mark:" + QUEUE + ":b");
        CompletableFuture<Void> done = a.request(QUEUE, NEW);
        everyNode(true, true);
        timer.advance(500);
        done.join();
        assertEquals(1, cluster.refused.size(), "b's first mark was lost: " + cluster.refused);
        assertEquals(NEW, cluster.queue(QUEUE));
    }

    @Test
    void aNewLayoutTheClusterCannotCommitEndsTheChangeWithoutIt() {
        cluster.refuse("queue:" + QUEUE);
        CompletableFuture<Void> done = a.request(QUEUE, NEW);
        timer.runDue();
        List<String> sent = new ArrayList<>();
        b.holdSend(QUEUE, () -> sent.add("by " + cluster.queue(QUEUE)));
        everyNode(true, true);
        timer.advance(200);

        String why = failure(done);
        assertTrue(why.contains("could not be committed"), why);
        assertNull(cluster.changes.get(QUEUE));
        assertEquals(OLD, cluster.queue(QUEUE));
        assertEquals(List.of("by " + OLD), sent);
    }

    @Test
    void aChangeWhoseBeginningTheClusterRefusedFailsAndHoldsNothing() {
        cluster.refuse("change:" + QUEUE);
        CompletableFuture<Void> done = a.request(QUEUE, NEW);
        timer.runDue();
        assertTrue(failure(done).contains("no majority"));
        assertFalse(b.holdsSends(QUEUE));
        timer.advance(TIMEOUT_MILLIS + 100); // the timeout finds nothing to end
        assertNull(cluster.changes.get(QUEUE));
    }

    // ---- helpers -------------------------------------------------------------------------------

    private void everyNode(boolean forwarded, boolean drained) {
        for (TestDrain d : drains.values()) {
            d.forwarded = forwarded;
            d.drained = drained;
        }
    }

    private String failure(CompletableFuture<Void> f) {
        assertTrue(f.isDone(), "not done yet");
        CompletionException e = assertThrows(CompletionException.class, f::join);
        return assertInstanceOf(IllegalStateException.class, e.getCause()).getMessage();
    }

    /** One node's part of the queue, as the test says it is. */
    private static final class TestDrain implements LayoutChanges.Drain {
        volatile boolean forwarded;
        volatile boolean drained;

        @Override
        public boolean forwarded(String queue) {
            return forwarded;
        }

        @Override
        public boolean drained(String queue) {
            return drained;
        }
    }

    /**
     * The consensus group: what a node asks is agreed in the order asked, when the timer runs its
     * queued work, and applied on every node (as Raft applies an entry on each member), the last
     * write winning as in the replicated map. Keys named by {@link #refuse} fail once, as when no
     * majority answers.
     */
    private static final class TestCluster implements LayoutChanges.Agreement {
        final ManualTimer timer;
        final List<LayoutChanges> nodes = new ArrayList<>();
        final Map<String, String> queues = new HashMap<>();
        final Map<String, String> changes = new HashMap<>();
        /** Node marks, by queue and node. */
        final Map<String, String> marks = new HashMap<>();
        /** What was agreed, in order: key=value. */
        final List<String> agreed = new ArrayList<>();

        final Set<String> toRefuse = new HashSet<>();
        final List<String> refused = new ArrayList<>();

        TestCluster(ManualTimer timer) {
            this.timer = timer;
        }

        void refuse(String key) {
            toRefuse.add(key);
        }

        /** Each node's phase in the queue's change in progress. */
        Map<String, String> phases(String queue) {
            Map<String, String> out = new HashMap<>();
            marks.forEach((k, v) -> {
                if (k.startsWith(queue + ":")) {
                    out.put(
                            k.substring(queue.length() + 1),
                            LayoutChange.Mark.decode(v).phase().name());
                }
            });
            return out;
        }

        @Override
        public String queue(String name) {
            return queues.get(name);
        }

        @Override
        public String layoutChange(String queue) {
            return changes.get(queue);
        }

        @Override
        public CompletableFuture<Void> defineQueue(String name, String options) {
            return agree("queue:" + name, options, () -> queues.put(name, options));
        }

        @Override
        public CompletableFuture<Void> layoutChange(String queue, String change) {
            return agree("change:" + queue, change, () -> {
                if (change == null) {
                    changes.remove(queue);
                } else {
                    changes.put(queue, change);
                }
                nodes.forEach(n -> n.changeAgreed(queue, change));
            });
        }

        @Override
        public CompletableFuture<Void> layoutMark(String queue, String node, String mark) {
            return agree("mark:" + queue + ":" + node, mark, () -> {
                marks.put(queue + ":" + node, mark);
                nodes.forEach(n -> n.markAgreed(queue, node, mark));
            });
        }

        private CompletableFuture<Void> agree(String key, String value, Runnable apply) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            timer.execute(() -> {
                if (toRefuse.remove(key)) {
                    refused.add(key);
                    done.completeExceptionally(new IllegalStateException("no majority for " + key));
                    return;
                }
                agreed.add(key + "=" + value);
                apply.run();
                done.complete(null);
            });
            return done;
        }
    }

    /**
     * A single thread of work in time the test moves: {@code execute} runs at the current time,
     * {@code schedule} after its delay. Runs on the test's thread, so every step is deterministic.
     */
    static final class ManualTimer {
        private record Task(long due, long seq, Runnable work) {}

        private final PriorityQueue<Task> tasks =
                new PriorityQueue<>((x, y) -> x.due != y.due ? Long.compare(x.due, y.due) : Long.compare(x.seq, y.seq));
        private long now;
        private long seq;

        void execute(Runnable work) {
            tasks.add(new Task(now, seq++, work));
        }

        void schedule(Runnable work, long delay, TimeUnit unit) {
            tasks.add(new Task(now + unit.toMillis(delay), seq++, work));
        }

        /** Runs what is due now, and what that queues for now. */
        void runDue() {
            runUntil(now);
        }

        /** Moves time on by {@code millis}, running everything due meanwhile in order. */
        void advance(long millis) {
            runUntil(now + millis);
        }

        private void runUntil(long end) {
            while (!tasks.isEmpty() && tasks.peek().due <= end) {
                Task t = tasks.poll();
                now = Math.max(now, t.due);
                t.work.run();
            }
            now = end;
        }

        /** This timer as the executor service the class under test takes (only execute and schedule). */
        ScheduledExecutorService service() {
            return (ScheduledExecutorService) Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {ScheduledExecutorService.class}, (p, method, args) -> {
                        switch (method.getName()) {
                            case "execute" -> execute((Runnable) args[0]);
                            case "schedule" -> {
                                if (!(args[0] instanceof Runnable r)) {
                                    throw new UnsupportedOperationException("schedule of a Callable");
                                }
                                schedule(r, (Long) args[1], (TimeUnit) args[2]);
                            }
                            default -> throw new UnsupportedOperationException(method.getName());
                        }
                        return null;
                    });
        }
    }
}
