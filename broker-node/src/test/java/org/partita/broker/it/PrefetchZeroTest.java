package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * {@code prefetch=0}: a consumer asks for one message when the application waits for one, so an idle
 * consumer (one that Spring's CachingConnectionFactory keeps open between receives) holds nothing.
 */
@Tag("slow")
@Timeout(60)
class PrefetchZeroTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private PartitaConnectionFactory pull() {
        return new PartitaConnectionFactory(node.node().url() + "?prefetch=0");
    }

    private static void send(Session s, String queue, int n) throws Exception {
        MessageProducer p = s.createProducer(s.createQueue(queue));
        for (int i = 0; i < n; i++) {
            p.send(s.createTextMessage("m" + i));
        }
    }

    @Test
    void anIdleConsumerHoldsNothingThatAnotherIsWaitingFor() throws Exception {
        try (Connection c = pull().createConnection()) {
            Session idleSession = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer idle = idleSession.createConsumer(idleSession.createQueue("work"));
            c.start();
            // a receive that times out, as an idle consumer's receives do: the scenario, on a queue nothing was sent to
            assertNull(idle.receive(200), "nothing to receive yet");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            send(s, "work", 10);
            MessageConsumer busy = s.createConsumer(s.createQueue("work"));
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                Message m = busy.receive(5000);
                assertNotNull(m, "message " + i + " reaches the consumer that asks; the idle one holds none");
                got.add(((TextMessage) m).getText());
            }
            assertEquals(10, got.size());
            Absence.awaitQueueHoldsNothing(c, "work", "the idle consumer holds nothing and nothing waits for it");
        }
    }

    @Test
    void receiveNoWaitTakesAWaitingMessage() throws Exception {
        try (Connection c = pull().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            send(s, "nowait", 2);
            MessageConsumer consumer = s.createConsumer(s.createQueue("nowait"));
            c.start();
            assertEquals("m0", ((TextMessage) consumer.receiveNoWait()).getText());
            assertEquals("m1", ((TextMessage) consumer.receiveNoWait()).getText());
            assertNull(consumer.receiveNoWait());
        }
    }

    /**
     * Emptying a queue with receiveNoWait, as a batch job does: each call finds the next message.
     * The client once let a call return null when the message answering its request arrived just
     * as the call gave up waiting (the request counted as answered before the message was buffered).
     */
    @Test
    void receiveNoWaitEmptiesAQueueOneMessageAtATime() throws Exception {
        int n = 1000;
        try (Connection c = pull().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            send(s, "batch", n);
            MessageConsumer consumer = s.createConsumer(s.createQueue("batch"));
            c.start();
            for (int i = 0; i < n; i++) {
                Message m = consumer.receiveNoWait();
                assertNotNull(m, "message " + i + " of " + n + " waits in the queue");
                assertEquals("m" + i, ((TextMessage) m).getText());
            }
            assertNull(consumer.receiveNoWait());
        }
    }

    @Test
    void aListenerWithPrefetchZeroReceivesEverything() throws Exception {
        try (Connection c = pull().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            List<String> got = new CopyOnWriteArrayList<>();
            s.createConsumer(s.createQueue("listened")).setMessageListener(m -> {
                try {
                    got.add(((TextMessage) m).getText());
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            c.start();
            Session ps = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            send(ps, "listened", 20);
            await().atMost(java.time.Duration.ofSeconds(10)).until(() -> got.size() == 20);
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                expected.add("m" + i);
            }
            assertEquals(expected, got);
        }
    }
}
