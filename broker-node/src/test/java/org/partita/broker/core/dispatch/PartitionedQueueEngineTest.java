package org.partita.broker.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.partita.broker.core.partition.PartitionFigures;
import org.partita.broker.core.partition.PartitionScope;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.broker.core.queue.QueueOptions;

/**
 * When partitions move: consumers that start together are spread at once, idle partitions move at
 * once, busy ones wait for the rebalance delay. Times are set by hand.
 */
class PartitionedQueueEngineTest {
    private static final QueueOptions OPTIONS = QueueOptions.DEFAULTS
            .with("partitions", "4")
            .with("rebalanceDelay", "5000")
            .with("maxHandoffTime", "3000");
    private final EngineFixture f = new EngineFixture();
    private final Map<ConsumerRef, Set<Integer>> told = new HashMap<>();
    private final PartitionedQueueEngine engine = new PartitionedQueueEngine(f, 4, () -> OPTIONS);

    @BeforeEach
    void wire() {
        f.engine = engine;
    }

    private ConsumerRef consumer(String name) {
        return consumer(name, 0);
    }

    private ConsumerRef consumer(String name, int priority) {
        return new ConsumerRef(
                name,
                new DeliverySink() {
                    @Override
                    public void deliver(ConsumerRef consumer, QueueEntry entry, int partition) {}

                    @Override
                    public void partitionsChanged(ConsumerRef consumer, int[] owned) {
                        Set<Integer> s = new TreeSet<>();
                        for (int p : owned) {
                            s.add(p);
                        }
                        told.put(consumer, s);
                    }
                },
                org.partita.protocol.selector.Selector.matchAll(),
                100,
                priority);
    }

    private List<Integer> owners(ConsumerRef c, long now) {
        List<Integer> out = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            PartitionFigures.Current fig = engine.figures(p, now);
            if (c.toString().equals(fig.owner()) && fig.state().equals("ASSIGNED")) {
                out.add(p);
            }
        }
        return out;
    }

    /** One message in every partition, so each has something in flight once delivered. */
    private void onePerPartition() {
        onePerPartition(engine);
    }

    private void onePerPartition(PartitionedQueueEngine engine) {
        for (int p = 0; p < 4; p++) {
            for (int i = 0; ; i++) {
                QueueEntry e = f.entry("p" + p, "key" + i);
                if (e.message().partition(4) == p) {
                    engine.add(e);
                    break;
                }
            }
        }
    }

    @Test
    void consumersStartingTogetherAreSpreadAtOnceEvenWithMessagesInFlight() {
        ConsumerRef a = consumer("a");
        engine.consumerAdded(a, 0);
        onePerPartition();
        engine.dispatch(0);
        assertEquals(List.of(0, 1, 2, 3), owners(a, 0), "the first consumer starts at once with everything");
        assertEquals(4, f.heldBy(a).size());

        ConsumerRef b = consumer("b");
        engine.consumerAdded(b, 300); // within the settle window of a
        engine.dispatch(300);
        assertEquals(2, owners(a, 300).size(), "a keeps its share");
        assertTrue(owners(b, 300).isEmpty(), "b waits until a has settled what it holds of the moving partitions");
        f.ackAll(engine, a, 310);
        engine.dispatch(310);
        assertEquals(
                2, owners(b, 310).size(), "the handoff ends with a's acknowledgements, not after the rebalance delay");
        assertEquals(Set.copyOf(owners(b, 310)), told.get(b), "b was told its partitions");
    }

    @Test
    void aLateJoinerGetsIdlePartitionsAtOnceAndBusyOnesAfterTheDelay() {
        ConsumerRef a = consumer("a");
        engine.consumerAdded(a, 0);
        engine.dispatch(0);
        // only partition 3 has a message in flight; the even spread gives partitions 2 and 3 to b
        for (int i = 0; ; i++) {
            QueueEntry e = f.entry("m", "key" + i);
            if (e.message().partition(4) == 3) {
                engine.add(e);
                break;
            }
        }
        engine.dispatch(10);
        ConsumerRef b = consumer("b");
        engine.consumerAdded(b, 10_000); // long after a: a scale-up, not a start
        engine.dispatch(10_000);
        assertEquals(List.of(2), owners(b, 10_000), "the idle partition moves at once: nothing of it can be reordered");
        assertEquals(List.of(0, 1, 3), owners(a, 10_000), "the busy partition stays until the rebalance delay");
        assertEquals(15_000, engine.dispatch(10_001), "the engine wants to run again when the rebalance delay ends");
        engine.dispatch(15_000);
        assertEquals("DRAINING", engine.figures(3, 15_000).state(), "then it is handed off");
        f.ackAll(engine, a, 15_010);
        engine.dispatch(15_010);
        assertEquals(List.of(2, 3), owners(b, 15_010));
        assertEquals(List.of(0, 1), owners(a, 15_010));
    }

    /** a owns every partition, each with a message in flight; then {@code later} joins long after. */
    private void busyOwnerThen(PartitionedQueueEngine engine, ConsumerRef a, ConsumerRef later) {
        f.engine = engine;
        engine.consumerAdded(a, 0);
        onePerPartition(engine);
        engine.dispatch(0);
        assertEquals(4, f.heldBy(a).size());
        engine.consumerAdded(later, 10_000); // long after a: not a start together
        engine.dispatch(10_000);
    }

    @Test
    void aHigherPriorityConsumerJoiningLaterTakesBusyPartitionsWithoutWaitingForTheDelay() {
        ConsumerRef a = consumer("a", 0);
        ConsumerRef b = consumer("b", 5);
        busyOwnerThen(engine, a, b);
        for (int p = 0; p < 4; p++) {
            assertEquals(
                    "DRAINING",
                    engine.figures(p, 10_000).state(),
                    "a standby no longer: its busy partition is handed off at once, not after rebalanceDelay");
        }
        f.ackAll(engine, a, 10_010);
        engine.dispatch(10_010);
        assertEquals(List.of(0, 1, 2, 3), owners(b, 10_010), "the handoff ends with a's acknowledgements");
        assertTrue(owners(a, 10_010).isEmpty());
    }

    /** On a cluster node: its own consumers are preferred, consumers of another hosting node (origin set) stand in. */
    private static final PartitionScope OWN_NODE_FIRST = new PartitionScope() {
        @Override
        public boolean hosted(int partition) {
            return true;
        }

        @Override
        public int tier(ConsumerRef consumer) {
            return consumer.origin() == null ? PREFERRED : PREFERRED + 1;
        }
    };

    @Test
    void aConsumerItsOwnNodeLeavesIdleTakesAPartitionFromALocalConsumerHoldingTwo() {
        PartitionedQueueEngine clustered = new PartitionedQueueEngine(f, 4, () -> OPTIONS, OWN_NODE_FIRST);
        f.engine = clustered;
        ConsumerRef a = consumer("a");
        ConsumerRef b = consumer("b");
        ConsumerRef c = consumer("c");
        ConsumerRef remote = consumer("remote");
        remote.origin("node2");
        for (ConsumerRef x : List.of(a, b, c, remote)) {
            clustered.consumerAdded(x, 0);
        }
        clustered.dispatch(0);
        assertEquals(0, ownedBy(clustered, remote, 0), "a consumer its own node keeps busy is not used here");
        assertEquals(4, ownedBy(clustered, a, 0) + ownedBy(clustered, b, 0) + ownedBy(clustered, c, 0));

        remote.spare(true); // its node (more consumers than partitions there) gives it none
        clustered.consumerChanged(remote, 10_000);
        clustered.dispatch(10_000);
        for (ConsumerRef x : List.of(a, b, c, remote)) {
            assertEquals(1, ownedBy(clustered, x, 10_000), x + ": one partition each, nobody idle");
        }

        remote.spare(false); // its node gave it one of its own: this node's consumers take theirs back at once
        clustered.consumerChanged(remote, 20_000);
        clustered.dispatch(20_000);
        assertEquals(0, ownedBy(clustered, remote, 20_000));
        assertEquals(4, ownedBy(clustered, a, 20_000) + ownedBy(clustered, b, 20_000) + ownedBy(clustered, c, 20_000));
    }

    @Test
    void aSpareConsumerOfAnotherNodeIsNotUsedWhileThisNodesOwnAreEnough() {
        PartitionedQueueEngine clustered = new PartitionedQueueEngine(f, 4, () -> OPTIONS, OWN_NODE_FIRST);
        f.engine = clustered;
        ConsumerRef remote = consumer("remote");
        remote.origin("node2");
        remote.spare(true);
        clustered.consumerAdded(remote, 0);
        for (String name : List.of("a", "b", "c", "d")) {
            clustered.consumerAdded(consumer(name), 0);
        }
        clustered.dispatch(0);
        assertEquals(0, ownedBy(clustered, remote, 0), "four own consumers for four partitions: local first");
    }

    private static int ownedBy(PartitionedQueueEngine e, ConsumerRef c, long now) {
        int n = 0;
        for (int p = 0; p < e.partitionCount(); p++) {
            PartitionFigures.Current fig = e.figures(p, now);
            if (c.toString().equals(fig.owner()) && fig.state().equals("ASSIGNED")) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aPreferredTierConsumerJoiningLaterTakesBusyPartitionsFromAFallbackOwnerAtOnce() {
        PartitionedQueueEngine clustered = new PartitionedQueueEngine(f, 4, () -> OPTIONS, OWN_NODE_FIRST);
        ConsumerRef remote = consumer("remote", 0);
        remote.origin("node2");
        ConsumerRef local = consumer("local", 0);
        busyOwnerThen(clustered, remote, local);
        assertEquals(
                "DRAINING",
                clustered.figures(0, 10_000).state(),
                "the stand-in's busy partitions are handed off at once, not after rebalanceDelay");
        f.ackAll(clustered, remote, 10_010);
        clustered.dispatch(10_010);
        for (int p = 0; p < 4; p++) {
            assertEquals("local", clustered.figures(p, 10_010).owner());
            assertEquals("ASSIGNED", clustered.figures(p, 10_010).state());
        }
    }

    @Test
    void aPartitionWithoutConsumersIsUnassigned() {
        PartitionFigures.Current fig = engine.figures(0, 0);
        assertNull(fig.owner());
        assertEquals("UNASSIGNED", fig.state());
    }
}
