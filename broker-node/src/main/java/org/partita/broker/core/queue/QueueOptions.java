package org.partita.broker.core.queue;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Options of one queue, named as in the config file, the admin API, destination names and metrics
 * (docs/destinations.md). Immutable; stored with the queue as {@code name=value&...}. Every option is checked
 * when it is set, so a bad value fails with a message naming it.
 *
 * <ul>
 *   <li>{@code partitions} (1): above 1, messages spread by key and each partition has one owner</li>
 *   <li>{@code mode} (priority): {@code priority}, {@code fanout} or {@code broadcast}</li>
 *   <li>{@code appIds}: the applications of a fan-out queue, comma-separated</li>
 *   <li>{@code lastValue}: {@code queue} keeps the newest message only; a property name keeps the
 *       newest per value of that property</li>
 *   <li>{@code subscriptions}: topic patterns, comma-separated, whose messages are spooled here</li>
 *   <li>{@code maxDepthMessages}, {@code maxDepthBytes} (0 = unbounded): a full queue refuses sends</li>
 *   <li>{@code rebalanceDelay} (5000 ms), {@code maxHandoffTime} (3000 ms): partition handoff</li>
 *   <li>{@code maxDeliveryAttempts} (10, 0 = unlimited), {@code deadLetterQueue} (DLQ),
 *       {@code expiryQueue} (none: expired messages are dropped)</li>
 *   <li>{@code redeliveryDelay} (0 ms), {@code redeliveryMultiplier} (1.0), {@code maxRedeliveryDelay}
 *       (unset: ten times {@code redeliveryDelay}): how long a message handed back waits before it is
 *       delivered again ({@link RedeliveryDelay}); Artemis's names</li>
 * </ul>
 */
public final class QueueOptions {
    public static final String PRIORITY = "priority";
    public static final String FANOUT = "fanout";
    public static final String BROADCAST = "broadcast";

    /**
     * No path (client, admin command, config file) may give a queue more partitions than this: each
     * costs memory before any message arrives. Clients are held to the node's lower limit.
     */
    public static final int MAX_PARTITIONS = 65_536;

    private static final Map<String, Function<String, String>> CHECKS = new LinkedHashMap<>();

    static {
        CHECKS.put("partitions", v -> atMost("partitions", integer("partitions", v, 1), MAX_PARTITIONS));
        CHECKS.put("mode", v -> oneOf("mode", v, PRIORITY, FANOUT, BROADCAST));
        CHECKS.put("appIds", v -> v);
        CHECKS.put("lastValue", v -> v);
        CHECKS.put("subscriptions", v -> v);
        CHECKS.put("maxDepthMessages", v -> integer("maxDepthMessages", v, 0));
        CHECKS.put("maxDepthBytes", v -> integer("maxDepthBytes", v, 0));
        CHECKS.put("rebalanceDelay", v -> integer("rebalanceDelay", v, 0));
        CHECKS.put("maxHandoffTime", v -> integer("maxHandoffTime", v, 0));
        CHECKS.put("maxDeliveryAttempts", v -> integer("maxDeliveryAttempts", v, 0));
        CHECKS.put("redeliveryDelay", v -> integer("redeliveryDelay", v, 0));
        CHECKS.put("redeliveryMultiplier", v -> multiplier("redeliveryMultiplier", v));
        // empty: ten times redeliveryDelay, as in Artemis, so that a queue given only a delay still has a cap
        CHECKS.put("maxRedeliveryDelay", v -> v.isBlank() ? "" : integer("maxRedeliveryDelay", v, 0));
        CHECKS.put("deadLetterQueue", v -> v);
        CHECKS.put("expiryQueue", v -> v);
        CHECKS.put("hosts", v -> v);
        CHECKS.put("localOnly", v -> oneOf("localOnly", v, "true", "false"));
        // how many nodes keep each partition of a clustered queue; checked against its hosts where placed
        CHECKS.put("replicas", v -> atMost("replicas", integer("replicas", v, 1), MAX_PARTITIONS));
        // how many of a replicated queue's hosts lead its replica sets; checked against its hosts where placed
        CHECKS.put("leaders", v -> atMost("leaders", integer("leaders", v, 1), MAX_PARTITIONS));
    }

    public static final QueueOptions DEFAULTS = new QueueOptions(Map.ofEntries(
            Map.entry("partitions", "1"),
            Map.entry("mode", PRIORITY),
            Map.entry("rebalanceDelay", "5000"),
            Map.entry("maxHandoffTime", "3000"),
            Map.entry("maxDeliveryAttempts", "10"),
            Map.entry("deadLetterQueue", "DLQ"),
            Map.entry("expiryQueue", ""),
            Map.entry("maxDepthMessages", "0"),
            Map.entry("maxDepthBytes", "0"),
            Map.entry("redeliveryDelay", "0"),
            Map.entry("redeliveryMultiplier", "1.0")));

    /** Options of the dead-letter and expiry queues themselves: never forward again. */
    public static final QueueOptions TERMINAL =
            DEFAULTS.with("maxDeliveryAttempts", "0").with("deadLetterQueue", "");

    private final Map<String, String> values;

    /**
     * The answers of {@link #conflicts} so far: a name with options is checked against its queue at
     * every send, and these options never change (an update gives the queue new ones).
     */
    private final BoundedMemo<String, List<String>> conflictsByText = new BoundedMemo<>(64);

    private QueueOptions(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static QueueOptions parse(String text, QueueOptions base) {
        QueueOptions o = base;
        if (text == null || text.isBlank()) {
            return o;
        }
        for (String pair : text.split("&")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("queue option '" + pair + "' has no value (expected name=value)");
            }
            o = o.with(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return o;
    }

    /** Every option name, in documentation order. */
    public static String names() {
        return String.join(", ", CHECKS.keySet());
    }

    public static boolean isQueueOption(String name) {
        return CHECKS.containsKey(name);
    }

    public QueueOptions with(String name, String value) {
        Function<String, String> check = CHECKS.get(name);
        if (check == null) {
            throw new IllegalArgumentException(
                    "unknown queue option '" + name + "'; known: " + String.join(", ", CHECKS.keySet()));
        }
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(name, check.apply(value));
        return new QueueOptions(m);
    }

    /** These options without {@code name} (its default applies). */
    public QueueOptions without(String name) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.remove(name);
        return new QueueOptions(m);
    }

    /**
     * The options {@code text} names whose value differs from this queue's, each as
     * {@code option (queue: value, name: value)}; empty when the text agrees with the queue. Values
     * are compared as the queue keeps them (numbers normalized, lists as sets), so {@code 08} agrees
     * with {@code 8} and {@code a,b} with {@code b, a}.
     */
    public List<String> conflicts(String text) {
        return conflictsByText.get(text, this::conflictsAnew);
    }

    private List<String> conflictsAnew(String text) {
        QueueOptions requested = parse(text, this);
        List<String> out = new java.util.ArrayList<>();
        for (String name : named(text)) {
            String have = values.getOrDefault(name, "");
            String want = requested.values.getOrDefault(name, "");
            boolean same = LIST_OPTIONS.contains(name)
                    ? new java.util.HashSet<>(requested.list(name)).equals(new java.util.HashSet<>(list(name)))
                    : have.equals(want);
            if (!same) {
                out.add(name + " (queue: '" + have + "', name: '" + want + "')");
            }
        }
        return List.copyOf(out);
    }

    private static final java.util.Set<String> LIST_OPTIONS = java.util.Set.of("appIds", "subscriptions", "hosts");

    /** The option names in {@code name=value&...}, in order, each once. */
    private static java.util.Set<String> named(String text) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        if (text != null) {
            for (String pair : text.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    names.add(pair.substring(0, eq).trim());
                }
            }
        }
        return names;
    }

    public String format() {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) ->
                sb.append(sb.length() == 0 ? "" : "&").append(k).append('=').append(v));
        return sb.toString();
    }

    public Map<String, String> asMap() {
        return values;
    }

    public int partitions() {
        return intValue("partitions");
    }

    public String mode() {
        return values.getOrDefault("mode", PRIORITY);
    }

    public List<String> appIds() {
        return list("appIds");
    }

    /** Null when the queue is not a last value queue. */
    public String lastValue() {
        String v = values.get("lastValue");
        return v == null || v.isEmpty() ? null : v;
    }

    public List<String> subscriptions() {
        return list("subscriptions");
    }

    /**
     * The cluster nodes a queue's partitions are spread over, in the order placement uses; {@code *}
     * for every node of the cluster; empty for a queue of this node alone.
     */
    public List<String> hosts() {
        return list("hosts");
    }

    /**
     * How many nodes keep each partition of a clustered queue (a Raft group of them), or 0 when the
     * queue does not say (the cluster's default applies).
     */
    public int replicas() {
        String v = values.get("replicas");
        return v == null || v.isBlank() ? 0 : Integer.parseInt(v);
    }

    /**
     * Over how many replica sets, each preferring another of its hosts as leader, a replicated
     * queue's partitions are spread, or 0 when the queue does not say (every host leads one).
     */
    public int leaders() {
        String v = values.get("leaders");
        return v == null || v.isBlank() ? 0 : Integer.parseInt(v);
    }

    /**
     * Whether a clustered queue with these options keeps its partitions where it would with {@code
     * other}'s: the same partitions, hosts, replicas and leaders. A change of any of them is a change
     * of layout, which drains what the old one holds first.
     */
    public boolean sameLayout(QueueOptions other) {
        return partitions() == other.partitions()
                && hosts().equals(other.hosts())
                && replicas() == other.replicas()
                && leaders() == other.leaders();
    }

    /** A clustered queue's partitions go only to consumers of their own node or of nodes hosting none. */
    public boolean localOnly() {
        return "true".equals(values.get("localOnly"));
    }

    public int maxDepthMessages() {
        return intValue("maxDepthMessages");
    }

    public long maxDepthBytes() {
        return intValue("maxDepthBytes");
    }

    public long rebalanceDelayMillis() {
        return intValue("rebalanceDelay");
    }

    public long maxHandoffMillis() {
        return intValue("maxHandoffTime");
    }

    public int maxDeliveryAttempts() {
        return intValue("maxDeliveryAttempts");
    }

    /** How long a message handed back waits before it is delivered again, by its deliveries so far. */
    public RedeliveryDelay redeliveryDelay() {
        long initial = intValue("redeliveryDelay");
        String multiplier = values.get("redeliveryMultiplier");
        String max = values.get("maxRedeliveryDelay");
        return new RedeliveryDelay(
                initial,
                multiplier == null || multiplier.isEmpty() ? 1.0 : Double.parseDouble(multiplier),
                max == null || max.isEmpty() ? RedeliveryDelay.DEFAULT_MAX_FACTOR * initial : Integer.parseInt(max));
    }

    public String deadLetterQueue() {
        return values.getOrDefault("deadLetterQueue", "");
    }

    public String expiryQueue() {
        return values.getOrDefault("expiryQueue", "");
    }

    private int intValue(String name) {
        String v = values.get(name);
        return v == null || v.isEmpty() ? 0 : Integer.parseInt(v);
    }

    private List<String> list(String name) {
        String v = values.get(name);
        if (v == null || v.isBlank()) {
            return List.of();
        }
        return Arrays.stream(v.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static String atMost(String name, String value, int max) {
        if (Integer.parseInt(value) > max) {
            throw new IllegalArgumentException("queue option " + name + " must be at most " + max + ", not " + value);
        }
        return value;
    }

    private static String integer(String name, String value, int min) {
        try {
            int v = Integer.parseInt(value.strip());
            if (v >= min) {
                return Integer.toString(v);
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(
                "queue option " + name + " must be an integer of at least " + min + ", not '" + value + "'");
    }

    /** A finite number of at least 1, kept as Java writes it ({@code 2} is kept as {@code 2.0}). */
    private static String multiplier(String name, String value) {
        try {
            double v = Double.parseDouble(value.strip());
            if (v >= 1.0 && Double.isFinite(v)) {
                return Double.toString(v);
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(
                "queue option " + name + " must be a number of at least 1.0, not '" + value + "'");
    }

    private static String oneOf(String name, String value, String... allowed) {
        for (String a : allowed) {
            if (a.equals(value)) {
                return value;
            }
        }
        throw new IllegalArgumentException(
                "queue option " + name + " must be one of " + String.join(", ", allowed) + ", not '" + value + "'");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QueueOptions other && other.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return format();
    }
}
