package org.partita.bench;

import java.util.List;

/**
 * The scenarios of the comparison, each with its default message count and the rows it reports.
 * The counts keep a default comparison (3 runs, 3 brokers) near 10 minutes on 2 cores, most of it spent
 * waiting for Artemis's default 3.33 ms journal timer; {@code --scale} multiplies them.
 */
public enum Scenario {
    S1("persistent queue, 1 producer / 1 consumer", 5_000),
    S2("persistent queue, 4 producers / 4 consumers, separate connections", 12_000),
    S3("non-persistent queue, 1 producer / 1 consumer", 50_000),
    S4("120 keys over 8 partitions (Artemis: message groups), 4 producers / 8 consumers", 12_000),
    S4K("as S4 on a plain queue with JMSXGroupID, consumers and producers created together", 10_000),
    S4B("as S4, a short burst: consumers and producers created together", 10_000),
    S4J("as S4, consumers join during the run (2, then up to 8)", 12_000),
    S5("topic with 5 durable subscriptions: publish all, then drain", 3_000),
    S6("transacted batches of 100 on both sides, persistent", 20_000),
    S7("end-to-end latency at a fixed rate, persistent, 1 producer / 1 consumer", 5_000),
    S8(
            "failover: keyed persistent messages at a fixed rate, 1 producer / 1 consumer on the leader;"
                    + " the leader's process killed a third of the way",
            1_500),
    S9L(
            "large messages: 1, 16 and 256 MiB persistent BytesMessages, 1 producer / 1 consumer, bodies streamed",
            52), // LARGE_COUNTS summed
    S9(
            "connections: at each count, each connection with a producer and a consumer on one shared queue,"
                    + " non-persistent then persistent; per step and variant",
            10_000),
    S10(
            "queues: at each count, one consumer on each queue, persistent messages sent round-robin over them;"
                    + " per step",
            10_000);

    /** S9L's body sizes, in MiB, sent one size after the other. */
    static final int[] LARGE_SIZES_MIB = {1, 16, 256};

    /** S9L's messages of each size at scale 1 (712 MiB in all); {@link #largeCounts(int)} splits a count so. */
    static final int[] LARGE_COUNTS = {40, 10, 2};

    /**
     * Whether the scenario kills the leader of a replicated broker (S8): its brokers run in processes,
     * and only replicated targets run it.
     */
    public boolean killsLeader() {
        return this == S8;
    }

    /**
     * Whether a message may arrive more than once (S8): a message the lost leader delivered and had no
     * acknowledgement for comes again from its successor, as both brokers promise across a failover.
     */
    public boolean atLeastOnce() {
        return this == S8;
    }

    /**
     * Whether the scenario reports what the broker's store grew by (S5): its broker must start the
     * run with a store no warm-up wrote to, or the store's reclaiming of the warm-up's files would
     * count against the run (Artemis's journal then shrank during S5).
     */
    public boolean measuresStoreGrowth() {
        return this == S5;
    }

    /**
     * Whether the scenario reports the broker's heap peak (S9L): with {@code --own-jvm}, the most heap
     * the broker's JVM still held after a collection during the run, from its GC log ({@link GcLog}).
     */
    public boolean reportsBrokerHeap() {
        return this == S9L;
    }

    /**
     * Whether the scenario steps through counts of something ({@link ScaleSweeps}: S9 connections, S10
     * queues), with a row per step and a chart of its figures against the count.
     */
    public boolean isSweep() {
        return this == S9 || this == S10;
    }

    /** The row key of the broker's heap peak ({@link #reportsBrokerHeap()}). */
    public String brokerHeapKey() {
        return name() + ".heap";
    }

    /**
     * S9L's messages of each size ({@link #LARGE_SIZES_MIB}) for a {@link #count(double) count}: shared
     * as {@link #LARGE_COUNTS} (40 : 10 : 2), at least one of each, the 1 MiB messages taking the rest.
     */
    static int[] largeCounts(int total) {
        int all = java.util.Arrays.stream(LARGE_COUNTS).sum();
        int[] counts = new int[LARGE_COUNTS.length];
        int rest = total;
        for (int i = counts.length - 1; i > 0; i--) {
            counts[i] = (int) Math.max(1, Math.round((double) total * LARGE_COUNTS[i] / all));
            rest -= counts[i];
        }
        counts[0] = Math.max(1, rest);
        return counts;
    }

    /** The row key of S9L's throughput with bodies of {@code mib} MiB. */
    static String largeKey(int mib) {
        return S9L.name() + "." + mib + "m";
    }

    /** One line of the result table. */
    public record Row(String key, String label, String unit, boolean higherIsBetter) {}

    private final String description;
    private final int defaultCount;

    Scenario(String description, int defaultCount) {
        this.description = description;
        this.defaultCount = defaultCount;
    }

    public String description() {
        return description;
    }

    public int defaultCount() {
        return defaultCount;
    }

    /** The count at the given scale: at least one message per producer and batch, rounded as the scenario needs. */
    public int count(double scale) {
        int n = (int) Math.max(1, Math.round(defaultCount * scale));
        int unit = switch (this) {
            case S2 -> 4;
            case S4, S4K, S4B, S4J -> 120; // 4 producers x 30 keys each
            case S6 -> 100;
            case S9L -> LARGE_COUNTS.length; // one message of each size at least
            default -> 1;
        };
        if (this == S9L) {
            return Math.max(unit, n);
        }
        return Math.max(unit, (n + unit - 1) / unit * unit);
    }

    /**
     * The throughput (or S5's and S8's figures), then end-to-end latency p50, p99 and max; S9L: its
     * throughput per body size and the broker's heap peak, no latency; S9 and S10: throughput and memory
     * per step of their sweep, no latency.
     */
    public List<Row> rows(Scenarios.Settings settings) {
        if (this == S9) {
            return ConnectionScaleScenario.rows(settings.sweeps());
        }
        if (this == S10) {
            return QueueScaleScenario.rows(settings.sweeps());
        }
        if (this == S9L) {
            List<Row> rows = new java.util.ArrayList<>();
            for (int mib : LARGE_SIZES_MIB) {
                rows.add(new Row(largeKey(mib), "S9L large messages of " + mib + " MiB, 1P/1C", "MiB/s", true));
            }
            rows.add(new Row(brokerHeapKey(), "S9L broker heap peak after GC (--own-jvm)", "MiB", false));
            return rows;
        }
        List<Row> rows = new java.util.ArrayList<>(
                switch (this) {
                    case S1 -> List.of(new Row("S1", "S1 persistent, 1P/1C", "msg/s", true));
                    case S2 -> List.of(new Row("S2", "S2 persistent, 4P/4C", "msg/s", true));
                    case S3 -> List.of(new Row("S3", "S3 non-persistent, 1P/1C", "msg/s", true));
                    case S4 -> List.of(new Row("S4", "S4 120 keys / 8 partitions, 4P/8C", "msg/s", true));
                    case S4K -> List.of(new Row("S4K", "S4 plain queue, keys, started together", "msg/s", true));
                    case S4B -> List.of(new Row("S4B", "S4 8 partitions, burst, started together", "msg/s", true));
                    case S4J -> List.of(new Row("S4J", "S4 consumers join 2 to 8", "msg/s", true));
                    case S5 ->
                        List.of(
                                new Row("S5", "S5 topic, 5 durable subs (publish + drain)", "msg/s", true),
                                new Row("S5.disk", "S5 disk bytes per message (1 KiB payload)", "B/msg", false));
                    case S6 -> List.of(new Row("S6", "S6 transacted batches of 100", "msg/s", true));
                    case S7 -> List.of();
                    case S8 ->
                        List.of(new Row(
                                FailoverScenario.FAILOVER_KEY,
                                "S8 failover: kill to first message from the new leader",
                                "ms",
                                false));
                    case S9L, S9, S10 -> throw new AssertionError(this + "'s rows are above");
                });
        String what = switch (this) {
            case S7 -> name() + " latency at " + settings.s7Rate() + " msg/s";
            case S8 -> name() + " latency at " + settings.failoverRate() + " msg/s, kill included";
            default -> name() + " latency";
        };
        rows.add(new Row(name() + ".p50", what + " p50", "ms", false));
        rows.add(new Row(name() + ".p99", what + " p99", "ms", false));
        rows.add(new Row(name() + ".max", what + " max", "ms", false));
        return rows;
    }

    public static Scenario fromId(String id) {
        for (Scenario s : values()) {
            if (s.name().equalsIgnoreCase(id.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + id + "'; known: "
                + java.util.Arrays.stream(values())
                        .map(Scenario::name)
                        .collect(java.util.stream.Collectors.joining(", ")));
    }
}
