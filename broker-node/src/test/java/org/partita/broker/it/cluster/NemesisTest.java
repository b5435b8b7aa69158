package org.partita.broker.it.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Random sequences of faults, one at a time, against three nodes in their own processes with a
 * producer and a consumer on every node: SIGKILL and a restart, SIGSTOP and SIGCONT, and links cut
 * (every node reaches the others only through TCP proxies, which black-hole one node's links while
 * its clients still reach it), each on a node drawn at random. The whole history is then checked
 * ({@link FaultsUnderLoad}). The build runs ten faults, each kind at least three times; {@code
 * -Pnemesis} runs 200 drawn freely. The seed is printed and can be given again with {@code
 * -Dpartita.nemesis.seed=N} to repeat a sequence.
 */
@Tag("slow")
@Timeout(600) // ten faults; a nemesis run (-Pnemesis) lifts the timeout, its waits being bounded each
class NemesisTest {
    private static final int FAULTS = Integer.getInteger("partita.nemesis.faults", 10);

    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path tmp;

    @Test
    void randomKillsPausesAndCutLinksUnderLoadLoseNothingConfirmedAndKeepEveryKeyInOrder() throws Exception {
        run("nemesis", FAULTS, FaultsUnderLoad.Workload.QUEUE);
    }

    /**
     * Five nodes, each partition's replica set three of them (so a node forwards to sets it is not in,
     * and a lost node leaves some sets whole): one fault of each kind on nodes drawn at random.
     */
    @Test
    void fiveNodesWithThreeReplicasEachKeepEveryKeyInOrderThroughAKillAPauseAndACut() throws Exception {
        run("nemesis (five nodes)", 5, 3, FaultsUnderLoad.Workload.QUEUE);
    }

    /**
     * The same against the other workloads, each with its own count of faults: {@code
     * -Dpartita.nemesis.<variant>Faults=N} (the build runs three or four of each, {@code -Pnemesis} 30;
     * 0 skips that workload).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Variant.class)
    void everyOtherWorkloadLosesNothingConfirmedThroughRandomFaults(Variant variant) throws Exception {
        int count = Integer.getInteger(variant.faultsProperty, 0);
        Assumptions.assumeTrue(count > 0, variant.faultsProperty + " is 0: skipped");
        run("nemesis (" + variant.label + ")", variant.nodes, count, variant.workload, variant.kinds, variant.config);
    }

    /** The workloads besides the plain queue's, each run on its own cluster with its own count of faults. */
    enum Variant {
        /**
         * A fan-out queue with two AppIds, each consumed on every node: every AppId must get every
         * confirmed message, each key in order, a repeat only flagged. Its first runs found a send
         * made again after a change of leader overtaken by the producer's next one
         * (docs/reliability.md, "The fan-out nemesis").
         */
        FAN_OUT("fan-out", 3, "partita.nemesis.fanOutFaults", FaultsUnderLoad.Workload.FAN_OUT),
        /**
         * A last value queue, consumed on every node: each key's newest confirmed update must arrive
         * (or a later one), a key's first arrivals never go back, a repeat only flagged.
         */
        LAST_VALUE("last value", 3, "partita.nemesis.lastValueFaults", FaultsUnderLoad.Workload.LAST_VALUE),
        /**
         * Transacted sessions on both sides, a commit every five messages: what a commit confirmed
         * must arrive, each key in order; what a commit reported rolled back never; a message a
         * failed consuming transaction received comes again flagged.
         */
        TRANSACTED("transacted", 3, "partita.nemesis.transactedFaults", FaultsUnderLoad.Workload.TRANSACTED),
        /**
         * Five nodes, three replicas a partition, and producers whose messages carry no key: a node
         * spreads them over partitions of sets it may not be in, and an unkeyed send made again after
         * its node was lost is looked up in every set, not one. Every confirmed message must arrive,
         * a repeat only flagged, nothing refused delivered.
         */
        UNKEYED("unkeyed, five nodes", 5, "partita.nemesis.unkeyedFaults", FaultsUnderLoad.Workload.UNKEYED),
        /**
         * The plain queue with {@code leaders=1}: one replica set for every partition, so a fault of
         * its leader moves every partition at once.
         */
        ONE_LEADER("leaders=1", 3, "partita.nemesis.oneLeaderFaults", FaultsUnderLoad.Workload.ONE_LEADER),
        /**
         * A replicated queue whose partition count changes (6 to 8 and back) through one node while
         * another is SIGKILLed moments into the change, each fault on a node drawn at random: whether a
         * change completes or is abandoned for the lost node, every confirmed message must arrive,
         * each key in order, a repeat only flagged.
         */
        RELAYOUT(
                "killed during a change of partitions",
                3,
                "partita.nemesis.relayoutFaults",
                FaultsUnderLoad.Workload.RELAYOUT,
                List.of(FaultsUnderLoad.Fault.KILL_DURING_RELAYOUT),
                FaultsUnderLoad.Fault.RELAYOUT_CONFIG);

        final String label;
        final int nodes;
        final String faultsProperty;
        final FaultsUnderLoad.Workload workload;
        /** The faults drawn from. */
        final List<FaultsUnderLoad.Fault> kinds;
        /** The nodes' config. */
        final List<String> config;

        Variant(String label, int nodes, String faultsProperty, FaultsUnderLoad.Workload workload) {
            this(label, nodes, faultsProperty, workload, FaultsUnderLoad.Fault.BASIC, FaultsUnderLoad.CONFIG);
        }

        Variant(
                String label,
                int nodes,
                String faultsProperty,
                FaultsUnderLoad.Workload workload,
                List<FaultsUnderLoad.Fault> kinds,
                List<String> config) {
            this.label = label;
            this.nodes = nodes;
            this.faultsProperty = faultsProperty;
            this.workload = workload;
            this.kinds = kinds;
            this.config = config;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    private void run(String label, int count, FaultsUnderLoad.Workload workload) throws Exception {
        run(label, 3, count, workload);
    }

    /**
     * {@code count} faults drawn from the seed (printed; {@code -Dpartita.nemesis.seed} repeats it) on a
     * cluster of {@code nodes} under {@code workload}.
     */
    private void run(String label, int nodes, int count, FaultsUnderLoad.Workload workload) throws Exception {
        run(label, nodes, count, workload, FaultsUnderLoad.Fault.BASIC, FaultsUnderLoad.CONFIG);
    }

    /** The same with faults drawn from {@code kinds}, the nodes run with {@code config}. */
    private void run(
            String label,
            int nodes,
            int count,
            FaultsUnderLoad.Workload workload,
            List<FaultsUnderLoad.Fault> kinds,
            List<String> config)
            throws Exception {
        long seed = Long.getLong("partita.nemesis.seed", System.nanoTime());
        Random random = new Random(seed);
        List<FaultsUnderLoad.Fault> faults = plan(random, count, kinds);
        int[] victims = random.ints(faults.size(), 0, nodes).toArray();
        System.out.println(label + " seed " + seed + ": " + faults.size() + " faults " + faults + " on nodes "
                + java.util.Arrays.toString(victims));
        try (ProcessCluster cluster =
                new ProcessCluster(tmp, "nemesis", nodes, config).proxied().start()) {
            FaultsUnderLoad.run(cluster, tmp, faults, round -> victims[round], workload);
        }
    }

    /** {@code count} faults in random order: up to ten, each kind at least a third of them; beyond, drawn freely. */
    static List<FaultsUnderLoad.Fault> plan(Random random, int count, List<FaultsUnderLoad.Fault> from) {
        FaultsUnderLoad.Fault[] kinds = from.toArray(FaultsUnderLoad.Fault[]::new);
        List<FaultsUnderLoad.Fault> out = new ArrayList<>();
        int each = Math.min(count, 10) / kinds.length;
        for (FaultsUnderLoad.Fault k : kinds) {
            for (int i = 0; i < each; i++) {
                out.add(k);
            }
        }
        while (out.size() < count) {
            out.add(kinds[random.nextInt(kinds.length)]);
        }
        Collections.shuffle(out, random);
        return out;
    }
}
