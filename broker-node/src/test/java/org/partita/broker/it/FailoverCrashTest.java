package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * docs/cluster.md, "Failover": a node killed with SIGKILL while asynchronous sends are on their way.
 * Node A is a child process (so it can be killed); node B runs in the test.
 */
@Tag("slow")
class FailoverCrashTest {
    private static final int SENDS = 5_000;

    @RegisterExtension
    final NodeExtension b = new NodeExtension();

    @Test
    void asyncSendsOnTheirWayWhenTheNodeIsKilledReachOnExceptionAndTheConnectionMovesOn(@TempDir Path tmp)
            throws Exception {
        List<JMSException> told = new CopyOnWriteArrayList<>();
        Map<Integer, Object> outcomes = new ConcurrentHashMap<>(); // index -> "ok" or the exception
        AtomicInteger callbacks = new AtomicInteger();
        try (ChildNode a = ChildNode.start(tmp.resolve("a"), 0, tmp.resolve("a-run"));
                Connection conn =
                        new PartitaConnectionFactory(a.url() + "," + b.node().url()).createConnection()) {
            conn.setExceptionListener(told::add);
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("burst");
            MessageProducer producer = s.createProducer(q);
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            byte[] payload = new byte[1024];
            for (int i = 0; i < SENDS; i++) {
                int index = i;
                jakarta.jms.BytesMessage m = s.createBytesMessage();
                m.writeBytes(payload);
                producer.send(m, new CompletionListener() {
                    @Override
                    public void onCompletion(Message message) {
                        record(index, "ok");
                    }

                    @Override
                    public void onException(Message message, Exception exception) {
                        record(index, exception);
                    }

                    private void record(int index, Object outcome) {
                        outcomes.put(index, outcome);
                        callbacks.incrementAndGet();
                    }
                });
            }
            a.kill();

            await("a callback for every send").atMost(Duration.ofSeconds(60)).until(() -> callbacks.get() >= SENDS);
            assertEquals(SENDS, callbacks.get(), "exactly one callback per send");
            List<JMSException> failed = outcomes.values().stream()
                    .filter(o -> o instanceof JMSException)
                    .map(o -> (JMSException) o)
                    .toList();
            assertTrue(!failed.isEmpty(), "sends were still on their way when A was killed");
            for (JMSException e : failed) {
                assertEquals(PartitaErrorCodes.NODE_LOST, e.getErrorCode(), e.getMessage());
            }

            await("the switch to B")
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> told.stream().anyMatch(e -> PartitaErrorCodes.FAILOVER.equals(e.getErrorCode())));
            producer.send(s.createTextMessage("after the crash"));
            MessageConsumer consumer = s.createConsumer(q);
            conn.start();
            assertEquals("after the crash", ((TextMessage) consumer.receive(5_000)).getText());
        }
    }
}
