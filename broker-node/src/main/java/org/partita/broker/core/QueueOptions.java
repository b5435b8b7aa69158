package org.partita.broker.core;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options of one queue, named as in the config file, the admin API and destination names
 * (DESIGN.md). Stored with the queue as {@code name=value&...}.
 *
 * @param partitions          number of partitions; above 1, messages are spread by key and each
 *                            partition has one owner consumer at a time
 * @param rebalanceDelayMillis how long the consumer set must be stable before partitions move
 * @param maxHandoffMillis    how long a partition's old owner has to acknowledge before it moves anyway
 * @param maxDeliveryAttempts deliveries after which a message goes to {@code deadLetterQueue}; 0 means no limit
 * @param deadLetterQueue     where poison messages go; empty to drop them
 * @param expiryQueue         where expired messages go; empty to drop them
 */
public record QueueOptions(int partitions, long rebalanceDelayMillis, long maxHandoffMillis,
                           int maxDeliveryAttempts, String deadLetterQueue, String expiryQueue) {

    public static final QueueOptions DEFAULTS = new QueueOptions(1, 5000, 3000, 10, "DLQ", "");

    /** Options of the dead-letter and expiry queues themselves: never forward again. */
    public static final QueueOptions TERMINAL = new QueueOptions(1, 5000, 3000, 0, "", "");

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

    /** True for the option names this record understands. */
    public static boolean isQueueOption(String name) {
        return switch (name) {
            case "partitions", "rebalanceDelay", "maxHandoffTime", "maxDeliveryAttempts", "deadLetterQueue",
                 "expiryQueue" -> true;
            default -> false;
        };
    }

    public QueueOptions with(String name, String value) {
        return switch (name) {
            case "partitions" -> new QueueOptions(atLeast(name, value, 1), rebalanceDelayMillis, maxHandoffMillis,
                    maxDeliveryAttempts, deadLetterQueue, expiryQueue);
            case "rebalanceDelay" -> new QueueOptions(partitions, atLeast(name, value, 0), maxHandoffMillis,
                    maxDeliveryAttempts, deadLetterQueue, expiryQueue);
            case "maxHandoffTime" -> new QueueOptions(partitions, rebalanceDelayMillis, atLeast(name, value, 0),
                    maxDeliveryAttempts, deadLetterQueue, expiryQueue);
            case "maxDeliveryAttempts" -> new QueueOptions(partitions, rebalanceDelayMillis, maxHandoffMillis,
                    atLeast(name, value, 0), deadLetterQueue, expiryQueue);
            case "deadLetterQueue" -> new QueueOptions(partitions, rebalanceDelayMillis, maxHandoffMillis,
                    maxDeliveryAttempts, value, expiryQueue);
            case "expiryQueue" -> new QueueOptions(partitions, rebalanceDelayMillis, maxHandoffMillis,
                    maxDeliveryAttempts, deadLetterQueue, value);
            default -> throw new IllegalArgumentException("unknown queue option '" + name
                    + "'; known: partitions, rebalanceDelay, maxHandoffTime, maxDeliveryAttempts, deadLetterQueue, expiryQueue");
        };
    }

    public String format() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("partitions", Integer.toString(partitions));
        m.put("rebalanceDelay", Long.toString(rebalanceDelayMillis));
        m.put("maxHandoffTime", Long.toString(maxHandoffMillis));
        m.put("maxDeliveryAttempts", Integer.toString(maxDeliveryAttempts));
        m.put("deadLetterQueue", deadLetterQueue);
        m.put("expiryQueue", expiryQueue);
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "&").append(k).append('=').append(v));
        return sb.toString();
    }

    private static int atLeast(String name, String value, int min) {
        try {
            int v = Integer.parseInt(value);
            if (v >= min) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the error below
        }
        throw new IllegalArgumentException("queue option " + name + " must be an integer of at least " + min + ", not '" + value + "'");
    }
}
