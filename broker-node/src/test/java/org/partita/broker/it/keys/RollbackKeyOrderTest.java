package org.partita.broker.it.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.partita.broker.it.NodeExtension;

/**
 * A consumer that rolls back (or recovers) often, with a backlog of many keys: each rollback hands back
 * what it saw while the queue may still be delivering the same keys' later messages to it. Those
 * must never reach the application ahead of the messages handed back.
 */
@Tag("slow")
public class RollbackKeyOrderTest {
    private static final int KEYS = 10;
    private static final int PER_KEY = 20;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @ParameterizedTest(name = "{0}, transacted: {1}")
    @CsvSource({
        "rollbackOrder?partitions=4, true",
        "rollbackOrderPlain, true",
        "recoverOrder?partitions=4, false",
        "recoverOrderPlain, false"
    })
    void everyMessageHandedBackOnceStillArrivesInKeyOrder(String queue, boolean transacted) throws Exception {
        handBackEachOnce(node.factory(), node.factory(), queue, transacted);
    }

    /**
     * Sends {@link #KEYS} keys' messages through {@code producers}, then consumes them through
     * {@code consumers}, handing the first delivery of each back (rollback, or recover in client
     * acknowledge mode), and checks every key arrives complete and in order.
     */
    public static void handBackEachOnce(
            jakarta.jms.ConnectionFactory producers,
            jakarta.jms.ConnectionFactory consumers,
            String queue,
            boolean transacted)
            throws Exception {
        try (Connection pc = producers.createConnection();
                Connection c = consumers.createConnection()) {
            Session producing = pc.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = producing.createProducer(producing.createQueue(queue));
            for (int i = 0; i < PER_KEY; i++) {
                for (int k = 0; k < KEYS; k++) {
                    Message m = producing.createMessage();
                    m.setStringProperty("JMSXGroupID", "k" + k);
                    m.setIntProperty("seq", i);
                    p.send(m);
                }
            }
            producing.commit();
            Session consuming = transacted
                    ? c.createSession(true, Session.SESSION_TRANSACTED)
                    : c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = consuming.createConsumer(consuming.createQueue(queue));
            c.start();
            Map<String, Integer> next = new HashMap<>();
            int committed = 0;
            int rollbacks = 0;
            while (committed < KEYS * PER_KEY) {
                Message m = consumer.receive(5000);
                assertNotNull(m, "after " + committed + " commits and " + rollbacks + " rollbacks");
                String key = m.getStringProperty("JMSXGroupID");
                int expected = next.getOrDefault(key, 0);
                assertEquals(expected, m.getIntProperty("seq"), "key " + key + " after " + rollbacks + " rollbacks");
                if (!m.getJMSRedelivered()) {
                    // the first delivery of every message is handed back once
                    if (transacted) {
                        consuming.rollback();
                    } else {
                        consuming.recover();
                    }
                    rollbacks++;
                    continue;
                }
                if (transacted) {
                    consuming.commit();
                } else {
                    m.acknowledge();
                }
                next.put(key, expected + 1);
                committed++;
            }
            assertEquals(KEYS * PER_KEY, rollbacks);
        }
    }
}
