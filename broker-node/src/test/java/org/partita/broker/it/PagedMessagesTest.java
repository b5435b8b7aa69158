package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.core.queue.PayloadMemory;

/**
 * Stored messages beyond the node's payload budget are paged out of memory and read back from the
 * store: users see exactly the same messages, order, selectors, browsing and redelivery.
 */
@Tag("slow")
class PagedMessagesTest {
    private static final int COUNT = 300;

    @Nested
    class WithNoBudget {
        @RegisterExtension
        final NodeExtension node = new NodeExtension(c -> c.withResidentBytes(0));

        @Test
        void pagedOutMessagesAreBrowsedSelectedAndRedeliveredIntact() throws Exception {
            try (Connection c = node.factory().createConnection()) {
                Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                Queue q = s.createQueue("paged");
                send(s, q, COUNT, null);
                PayloadMemory memory = node.node().broker().payloadMemory();
                assertEquals(COUNT, memory.pagedOutCount(), "every stored message left memory at once");
                assertEquals(0, memory.residentBytes());

                List<String> browsed = new ArrayList<>();
                try (QueueBrowser b = s.createBrowser(q)) {
                    for (var e = b.getEnumeration(); e.hasMoreElements(); ) {
                        browsed.add(((TextMessage) e.nextElement()).getText());
                    }
                }
                assertEquals(texts(0, COUNT, 1), browsed);

                c.start();
                MessageConsumer red = s.createConsumer(q, "color = 'red'");
                List<String> got = new ArrayList<>();
                for (Message m; got.size() < COUNT / 3 && (m = red.receive(5000)) != null; ) {
                    got.add(((TextMessage) m).getText());
                }
                assertEquals(texts(0, COUNT, 3), got, "the selector saw the paged-out properties");
                s.recover();
                Message again = red.receive(5000);
                assertNotNull(again);
                assertTrue(again.getJMSRedelivered());
                assertEquals("message-0", ((TextMessage) again).getText());
                again.acknowledge();
                for (Message m; (m = red.receive(500)) != null; ) {
                    m.acknowledge();
                }
                red.close();

                MessageConsumer rest = s.createConsumer(q);
                int others = 0;
                for (Message m; (m = rest.receive(2000)) != null; others++) {
                    assertFalse(((TextMessage) m).getText().isEmpty());
                    m.acknowledge();
                }
                assertEquals(COUNT - COUNT / 3, others);
                assertNull(rest.receiveNoWait());
            }
        }

        @Test
        void aPartitionedQueueKeepsEachKeysOrderForPagedOutMessagesAcrossARestart() throws Exception {
            String queue = "paged-keys?partitions=4";
            try (Connection c = node.factory().createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                send(s, s.createQueue(queue), COUNT, i -> "key-" + (i % 7));
            }
            node.restart();
            assertTrue(
                    node.node().broker().payloadMemory().pagedOutCount() >= COUNT,
                    "restored messages are paged out too");
            Map<String, List<Integer>> byKey = new HashMap<>();
            try (Connection c = node.factory().createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
                c.start();
                for (int n = 0; n < COUNT; n++) {
                    Message m = consumer.receive(5000);
                    assertNotNull(m, "message " + n + " of " + COUNT);
                    byKey.computeIfAbsent(m.getStringProperty("JMSXGroupID"), k -> new ArrayList<>())
                            .add(m.getIntProperty("i"));
                    assertEquals("message-" + m.getIntProperty("i"), ((TextMessage) m).getText());
                }
                Absence.awaitQueueHoldsNothing(c, "paged-keys", "every message delivered once and acknowledged");
            }
            assertEquals(7, byKey.size());
            for (List<Integer> seqs : byKey.values()) {
                List<Integer> sorted = new ArrayList<>(seqs);
                Collections.sort(sorted);
                assertEquals(sorted, seqs, "a key's messages arrive in the order they were sent");
            }
        }
    }

    @Nested
    class WithTheDefaultBudget {
        @RegisterExtension
        final NodeExtension node = new NodeExtension();

        @Test
        void aSmallBacklogStaysInMemoryAndIsReleasedWhenConsumed() throws Exception {
            try (Connection c = node.factory().createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Queue q = s.createQueue("resident");
                send(s, q, COUNT, null);
                PayloadMemory memory = node.node().broker().payloadMemory();
                assertEquals(0, memory.pagedOutCount());
                assertTrue(memory.residentBytes() > COUNT * 10L, "resident: " + memory.residentBytes());
                MessageConsumer consumer = s.createConsumer(q);
                c.start();
                for (int n = 0; n < COUNT; n++) {
                    assertNotNull(consumer.receive(5000));
                }
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> memory.residentBytes() == 0); // consumed: no longer resident
            }
        }
    }

    private static void send(Session s, Queue q, int count, java.util.function.IntFunction<String> key)
            throws Exception {
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < count; i++) {
            TextMessage m = s.createTextMessage("message-" + i);
            m.setIntProperty("i", i);
            m.setStringProperty("color", i % 3 == 0 ? "red" : "blue");
            if (key != null) {
                m.setStringProperty("JMSXGroupID", key.apply(i));
            }
            p.send(m);
        }
    }

    private static List<String> texts(int from, int to, int step) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i += step) {
            out.add("message-" + i);
        }
        return out;
    }
}
