package org.partita.broker.core.queue;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A destination name with options, as applications may write it: {@code orders?partitions=8} or
 * {@code jobs?priority=10}. Queue options (named as in docs/destinations.md) apply when a queue is created on first
 * use; consumer options apply to the consumer that names them. See docs/destinations.md.
 */
public record DestinationAddress(String name, String queueOptions, Map<String, String> consumerOptions) {

    private static final java.util.Set<String> CONSUMER_OPTIONS =
            java.util.Set.of("priority", "appId", "capacity", "capacityBytes");

    /**
     * Names parsed lately: a producer names its destination in every send, and parsing options (URL
     * decoding, splitting) cost a clustered queue's send path several percent of a node's CPU. The
     * addresses are immutable; a name that fails to parse is not kept, so it fails every time.
     */
    private static final BoundedMemo<String, DestinationAddress> PARSED = new BoundedMemo<>(4096);

    public static DestinationAddress parse(String text) {
        return PARSED.get(text, DestinationAddress::parseAnew);
    }

    private static DestinationAddress parseAnew(String text) {
        int q = text.indexOf('?');
        if (q < 0) {
            return new DestinationAddress(text, "", Map.of());
        }
        String name = text.substring(0, q);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("destination '" + text + "' has options but no name");
        }
        StringBuilder queueOptions = new StringBuilder();
        Map<String, String> consumer = new LinkedHashMap<>();
        for (String pair : text.substring(q + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("option '" + pair + "' of destination '" + text + "' has no value");
            }
            String key = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (QueueOptions.isQueueOption(key)) {
                queueOptions
                        .append(queueOptions.length() == 0 ? "" : "&")
                        .append(key)
                        .append('=')
                        .append(value);
            } else if (CONSUMER_OPTIONS.contains(key)) {
                consumer.put(key, value);
            } else {
                throw new IllegalArgumentException("unknown option '" + key + "' in destination '" + text
                        + "'; queue options: " + QueueOptions.names() + "; consumer options: " + CONSUMER_OPTIONS);
            }
        }
        return new DestinationAddress(name, queueOptions.toString(), java.util.Collections.unmodifiableMap(consumer));
    }

    /**
     * The name with its consumer options only, as another node is asked for the same consumer: the
     * queue's own options were agreed when it was created, and may have changed since.
     */
    public String consumerName() {
        if (consumerOptions.isEmpty()) {
            return name;
        }
        java.util.StringJoiner j = new java.util.StringJoiner("&", name + "?", "");
        consumerOptions.forEach((k, v) -> j.add(java.net.URLEncoder.encode(k, StandardCharsets.UTF_8) + "="
                + java.net.URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return j.toString();
    }

    /** The consumer priority named, or 0. */
    public int priority() {
        return Math.toIntExact(number("priority", 0));
    }

    /** The most unacknowledged messages the consumer will hold, or 0 for no limit. */
    public int capacity() {
        return Math.toIntExact(number("capacity", 0));
    }

    /** The most unacknowledged bytes the consumer will hold, or 0 for no limit. */
    public long capacityBytes() {
        return number("capacityBytes", 0);
    }

    private long number(String option, long dflt) {
        String p = consumerOptions.get(option);
        if (p == null) {
            return dflt;
        }
        try {
            long v = Long.parseLong(p);
            if (v < Integer.MIN_VALUE || (v > Integer.MAX_VALUE && !option.equals("capacityBytes"))) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("consumer option " + option + " must be an integer, not '" + p + "'");
        }
    }
}
