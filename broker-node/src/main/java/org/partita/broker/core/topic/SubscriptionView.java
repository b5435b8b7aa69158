package org.partita.broker.core.topic;

/**
 * A topic subscription (or a queue's topic feed) as admin shows it.
 *
 * @param kind      {@code durable}, {@code shared-durable}, {@code shared}, {@code private} (one plain
 *                  consumer) or {@code queue-feed} (a queue's {@code subscriptions} option)
 * @param queue     the queue its messages are spooled to
 * @param consumers consumers attached (0 for a queue feed: its queue's consumers count there)
 */
public record SubscriptionView(String name, String kind, String queue, String topic, String selector, int consumers) {}
