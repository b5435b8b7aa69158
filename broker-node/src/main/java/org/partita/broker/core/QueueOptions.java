package org.partita.broker.core;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options of one queue, named as in the config file, the admin API and destination names
 * (DESIGN.md). Stored with the queue as {@code name=value&...}.
 *
 * @param maxDeliveryAttempts deliveries after which a message goes to {@code deadLetterQueue}; 0 means no limit
 * @param deadLetterQueue     where poison messages go; empty to drop them
 * @param expiryQueue         where expired messages go; empty to drop them
 */
public record QueueOptions(int maxDeliveryAttempts, String deadLetterQueue, String expiryQueue) {

    public static final QueueOptions DEFAULTS = new QueueOptions(10, "DLQ", "");

    /** Options of the dead-letter and expiry queues themselves: never forward again. */
    public static final QueueOptions TERMINAL = new QueueOptions(0, "", "");

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

    public QueueOptions with(String name, String value) {
        return switch (name) {
            case "maxDeliveryAttempts" -> new QueueOptions(nonNegative(name, value), deadLetterQueue, expiryQueue);
            case "deadLetterQueue" -> new QueueOptions(maxDeliveryAttempts, value, expiryQueue);
            case "expiryQueue" -> new QueueOptions(maxDeliveryAttempts, deadLetterQueue, value);
            default -> throw new IllegalArgumentException("unknown queue option '" + name
                    + "'; known: maxDeliveryAttempts, deadLetterQueue, expiryQueue");
        };
    }

    public String format() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("maxDeliveryAttempts", Integer.toString(maxDeliveryAttempts));
        m.put("deadLetterQueue", deadLetterQueue);
        m.put("expiryQueue", expiryQueue);
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "&").append(k).append('=').append(v));
        return sb.toString();
    }

    private static int nonNegative(String name, String value) {
        try {
            int v = Integer.parseInt(value);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the error below
        }
        throw new IllegalArgumentException("queue option " + name + " must be a non-negative integer, not '" + value + "'");
    }
}
