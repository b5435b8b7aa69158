package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.process.FatalErrors;

/**
 * Issue 12 point 5: a node whose JVM runs out of memory exits, so that a supervisor restarts it,
 * instead of staying up and unresponsive. The node runs in a process of its own as {@code NodeMain}
 * runs one (without {@code -XX:+ExitOnOutOfMemoryError}) in a small heap, and one open transaction is
 * allowed to grow past it ({@link UnboundedTransactionNode}: a config file may not raise a budget past
 * the heap).
 */
@Tag("slow")
class OutOfMemoryExitTest {
    @TempDir
    Path tmp;

    private ChildNode node;

    @AfterEach
    void stop() throws InterruptedException {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aNodeThatRunsOutOfMemoryExits() throws Exception {
        node = ChildNode.startMain(
                        tmp.resolve("log"),
                        List.of("-Xmx80m", "-XX:MaxDirectMemorySize=64m"),
                        UnboundedTransactionNode.class.getName(),
                        tmp.resolve("data").toString())
                .awaitReady();
        byte[] body = new byte[256 * 1024];
        Connection c = node.factory().createConnection();
        try {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue("heavy"));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            // at most 1 GiB, one synchronous send at a time: the node holds it all in the open transaction
            for (int i = 0; i < 4096 && node.process().isAlive(); i++) {
                var m = s.createBytesMessage();
                m.writeBytes(body);
                p.send(m);
            }
        } catch (JMSException expected) {
            // the node went away under the send
        } finally {
            CrashRecoveryTest.closeQuietly(c);
        }
        int status = node.awaitExit(Duration.ofSeconds(90));
        assertEquals(FatalErrors.EXIT_STATUS, status, "stderr:\n" + node.stderr());
        assertTrue(node.stderr().contains("fatal JVM error"), node.stderr());
    }
}
