package org.partita.broker.it.keys;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.it.NodeExtension;

/**
 * A listener in an AUTO_ACKNOWLEDGE session that throws hands its message back redelivered (JMS
 * 8.7), while later messages of the same key may already wait in the consumer's buffer: they must
 * not be processed before it.
 */
@Tag("slow")
public class ListenerFailureKeyOrderTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @ParameterizedTest
    @ValueSource(strings = {"failing?partitions=2", "failingPlain"})
    void aMessageWhoseListenerThrewIsProcessedBeforeItsKeysLaterMessages(String queue) throws Exception {
        listenerFailsOnceInFive(node.factory(), node.factory(), queue);
    }

    /**
     * Sends 60 messages over four keys (on a two-node queue, some on each node) through {@code producers}; a listener connected through
     * {@code consumers} fails once on every fifth; checks each key was processed in order.
     */
    public static void listenerFailsOnceInFive(
            jakarta.jms.ConnectionFactory producers, jakarta.jms.ConnectionFactory consumers, String queue)
            throws Exception {
        int count = 60;
        List<String> processed = new CopyOnWriteArrayList<>();
        try (Connection pc = producers.createConnection();
                Connection c = consumers.createConnection()) {
            Session producing = pc.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = producing.createProducer(producing.createQueue(queue));
            for (int i = 0; i < count; i++) {
                Message m = producing.createMessage();
                m.setStringProperty("JMSXGroupID", "k" + (i % 4));
                m.setIntProperty("seq", i);
                p.send(m);
            }
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
            consumer.setMessageListener(m -> {
                try {
                    if (m.getIntProperty("seq") % 5 == 0 && !m.getJMSRedelivered()) {
                        throw new IllegalStateException("fails the first time"); // one message in five fails once
                    }
                    processed.add(m.getStringProperty("JMSXGroupID") + "#" + m.getIntProperty("seq"));
                } catch (jakarta.jms.JMSException e) {
                    throw new IllegalStateException(e);
                }
            });
            c.start();
            await().atMost(java.time.Duration.ofSeconds(30)).until(() -> processed.size() >= count);
        }
        for (String key : List.of("k0", "k1", "k2", "k3")) {
            List<Integer> seqs = new ArrayList<>();
            for (String p : processed) {
                if (p.startsWith(key + "#")) {
                    seqs.add(Integer.parseInt(p.substring(key.length() + 1)));
                }
            }
            List<Integer> sorted = new ArrayList<>(seqs);
            sorted.sort(null);
            assertEquals(sorted, seqs, "key " + key + " processed in order");
        }
    }
}
