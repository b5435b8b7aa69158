package org.partita.broker.core.dispatch;

import java.util.List;

/**
 * One consumer of a queue as admin shows it.
 *
 * @param consumer     its description: the consumer id and its connection's address
 * @param credits      messages its client buffer can still take
 * @param inFlight     messages delivered to it and not yet acknowledged
 * @param delivered    deliveries to it since it attached
 * @param acknowledged messages it consumed since it attached
 * @param redelivered  deliveries to it flagged redelivered (the application had seen the message before)
 * @param partitions   partitions it owns (partitioned queues)
 */
public record ConsumerFigures(
        String consumer,
        int priority,
        int credits,
        int inFlight,
        long inFlightBytes,
        long delivered,
        long acknowledged,
        long redelivered,
        String selector,
        List<Integer> partitions) {}
