package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.api.QueueStats;

/**
 * Evidence that nothing is there for a consumer, rather than a fixed wait that nothing arrives: a
 * sentinel sent after the action and received next (on a FIFO destination nothing was ahead of it),
 * or the queue's figures read through the admin API until they hold.
 */
public final class Absence {
    /** Long enough for a message that is there to arrive, or a figure to settle, on a loaded build machine. */
    private static final Duration ARRIVES = Duration.ofSeconds(10);

    private Absence() {}

    /**
     * Sends a sentinel to {@code destination} through {@code session} (committed when the session is
     * transacted) and returns its text. It goes at the lowest priority, so that nothing waiting can be
     * ordered behind it.
     */
    public static String sendSentinel(Session session, Destination destination) throws JMSException {
        return sendSentinel(session, destination, session.createTextMessage());
    }

    /** As {@link #sendSentinel(Session, Destination)}, with a message the caller prepared (properties a selector or a key needs). */
    public static String sendSentinel(Session session, Destination destination, TextMessage sentinel)
            throws JMSException {
        String text = "sentinel-" + UUID.randomUUID();
        sentinel.setText(text);
        try (MessageProducer p = session.createProducer(destination)) {
            p.setPriority(0);
            p.send(sentinel);
        }
        if (session.getTransacted()) {
            session.commit();
        }
        return text;
    }

    /** Asserts that the next message {@code consumer} receives is the sentinel {@code sentinel}; returns it. */
    public static Message assertNextIsSentinel(MessageConsumer consumer, String sentinel, String why)
            throws JMSException {
        Message next = consumer.receive(ARRIVES.toMillis());
        assertNotNull(next, "the sentinel arrives (" + why + ")");
        String got = next instanceof TextMessage t ? t.getText() : next.toString();
        assertEquals(sentinel, got, why);
        return next;
    }

    /**
     * Sends a sentinel to {@code destination} and asserts that it is the next message {@code consumer}
     * receives: nothing was waiting ahead of it. Returns it, for a caller that acknowledges or commits.
     */
    public static Message assertNothingAhead(
            Session session, Destination destination, MessageConsumer consumer, String why) throws JMSException {
        return assertNextIsSentinel(consumer, sendSentinel(session, destination), why);
    }

    /** Reads the queue's figures ({@code queue.stat}) until {@code holds} is true of them; returns them. */
    public static QueueStats awaitQueue(Connection connection, String queue, String why, Predicate<QueueStats> holds)
            throws JMSException {
        PartitaAdmin admin = PartitaAdmin.on(connection);
        AtomicReference<QueueStats> last = new AtomicReference<>();
        await(why).atMost(ARRIVES).untilAsserted(() -> {
            last.set(admin.queueStats(queue));
            assertTrue(holds.test(last.get()), why + ": " + last.get());
        });
        return last.get();
    }

    /** Waits until {@code queue} holds nothing: none waiting, none delivered and unacknowledged. */
    public static QueueStats awaitQueueHoldsNothing(Connection connection, String queue, String why)
            throws JMSException {
        return awaitQueue(connection, queue, why, q -> q.depth() == 0 && q.inFlight() == 0);
    }

    /**
     * Asserts that nothing reaches {@code consumer} for the whole of {@code window}. Only for an absence
     * no sentinel or figure can show; the caller says why a time window is the only evidence.
     */
    public static void assertNothingArrivesDuring(MessageConsumer consumer, Duration window, String why) {
        List<String> arrived = new ArrayList<>();
        await(why)
                .pollInSameThread()
                .during(window)
                .atMost(window.plus(Duration.ofSeconds(2)))
                .untilAsserted(() -> {
                    Message m = consumer.receiveNoWait();
                    if (m != null) {
                        arrived.add(m instanceof TextMessage t ? t.getText() : m.toString());
                    }
                    assertEquals(List.of(), arrived, why);
                });
    }
}
