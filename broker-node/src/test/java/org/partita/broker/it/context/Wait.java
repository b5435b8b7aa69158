package org.partita.broker.it.context;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.partita.broker.it.Absence;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.api.QueueStats;

/** Small helpers shared by the JMSContext tests. */
final class Wait {
    /** Long enough for a message that is there to arrive on a loaded build machine. */
    static final long ARRIVES = 10_000;

    private Wait() {}

    /**
     * Sends a sentinel to {@code destination} through {@code ctx} (committed when it is transacted), at
     * the lowest priority, and returns its text.
     */
    static String sendSentinel(JMSContext ctx, Destination destination) {
        return sendSentinel(ctx, ctx.createProducer(), destination);
    }

    /** As {@link #sendSentinel(JMSContext, Destination)}, through a producer of {@code ctx} the caller prepared (properties a selector needs). */
    static String sendSentinel(JMSContext ctx, JMSProducer producer, Destination destination) {
        String sentinel = "sentinel-" + UUID.randomUUID();
        producer.setPriority(0).send(destination, sentinel);
        if (ctx.getTransacted()) {
            ctx.commit();
        }
        return sentinel;
    }

    /** Asserts that the next message {@code consumer} receives is the sentinel {@code sentinel}. */
    static void assertNextIsSentinel(JMSConsumer consumer, String sentinel, String why) {
        assertEquals(sentinel, consumer.receiveBody(String.class, ARRIVES), why);
    }

    /**
     * Sends a sentinel to {@code destination} through {@code ctx} (committed when it is transacted), at
     * the lowest priority, and asserts that it is the next message {@code consumer} receives: nothing
     * was waiting ahead of it.
     */
    static void assertNothingAhead(JMSContext ctx, Destination destination, JMSConsumer consumer, String why) {
        assertNextIsSentinel(consumer, sendSentinel(ctx, destination), why);
    }

    /** As {@link #assertNothingAhead(JMSContext, Destination, JMSConsumer, String)}, the sentinel sent through {@code producer}. */
    static void assertNothingAhead(
            JMSContext ctx, JMSProducer producer, Destination destination, JMSConsumer consumer, String why) {
        assertNextIsSentinel(consumer, sendSentinel(ctx, producer, destination), why);
    }

    /** Receives {@code count} text messages, each within {@link #ARRIVES}, and returns their bodies in order. */
    static List<String> receiveTexts(JMSConsumer consumer, int count) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String text = consumer.receiveBody(String.class, ARRIVES);
            assertNotNull(text, "message " + (i + 1) + " of " + count + " arrives; before it: " + texts);
            texts.add(text);
        }
        return texts;
    }

    /**
     * Receives from whichever of {@code consumers} has a message until {@code count} have come (within
     * {@link #ARRIVES} in all), and returns them; more than {@code count} when more came at once.
     */
    static List<Message> receiveFromAny(int count, JMSConsumer... consumers) {
        List<Message> got = new ArrayList<>();
        await(count + " messages across " + consumers.length + " consumers")
                .atMost(Duration.ofMillis(ARRIVES))
                .pollInSameThread()
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    for (JMSConsumer c : consumers) {
                        Message m;
                        while ((m = c.receiveNoWait()) != null) {
                            got.add(m);
                        }
                    }
                    return got.size() >= count;
                });
        return got;
    }

    /** Reads the figures of {@code queue}, through a connection of its own, until {@code holds} is true of them. */
    static QueueStats awaitQueue(ConnectionFactory factory, String queue, String why, Predicate<QueueStats> holds)
            throws JMSException {
        try (Connection c = factory.createConnection()) {
            return Absence.awaitQueue(c, queue, why, holds);
        }
    }

    /** Reads the figures of {@code queue} until it holds nothing: none waiting, none delivered and unacknowledged. */
    static void awaitQueueHoldsNothing(ConnectionFactory factory, String queue, String why) throws JMSException {
        try (Connection c = factory.createConnection()) {
            Absence.awaitQueueHoldsNothing(c, queue, why);
        }
    }

    /**
     * Reads the figures of the queue behind the topic subscription the application named
     * {@code subscription} until it holds nothing: none waiting, none delivered and unacknowledged.
     */
    static void awaitSubscriptionHoldsNothing(ConnectionFactory factory, String subscription, String why)
            throws JMSException {
        try (Connection c = factory.createConnection()) {
            List<String> queues = PartitaAdmin.on(c).subscriptions().stream()
                    .filter(s -> s.get("subscription").endsWith(":" + subscription))
                    .map(s -> s.get("queue"))
                    .toList();
            assertEquals(1, queues.size(), "the queue of subscription " + subscription + ": " + queues);
            Absence.awaitQueueHoldsNothing(c, queues.get(0), why);
        }
    }
}
