package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * docs/admin.md, {@code ioThreads}: the node reads and writes all its connections' sockets on that
 * many event loops (half the cores by default), and every connection is served whichever loop it
 * shares. Six connections exchange messages with each other on a node of one loop and on a node of
 * two; the node's socket threads (named {@code partita-io-<node>-...}) are counted in this JVM.
 */
@Tag("slow")
@Timeout(60)
class EventLoopsTest {
    private static final int CONNECTIONS = 6;

    @TempDir
    Path dir;

    @Test
    void oneLoopServesEveryConnection() throws Exception {
        assertEquals(1, loopsServing("loops1", 1));
    }

    @Test
    void twoLoopsShareTheConnections() throws Exception {
        assertEquals(2, loopsServing("loops2", 2));
    }

    /** Each connection sends one message to the next one's queue and receives its own: returns the socket threads seen. */
    private int loopsServing(String nodeName, int ioThreads) throws Exception {
        NodeConfig config = NodeConfig.defaults()
                .withPort(0)
                .withNodeName(nodeName)
                .withDataDir(dir.resolve(nodeName))
                .withIoThreads(ioThreads);
        try (PartitaNode node = PartitaNode.start(config)) {
            PartitaConnectionFactory cf = new PartitaConnectionFactory(node.url());
            List<Connection> connections = new ArrayList<>();
            try {
                List<Session> sessions = new ArrayList<>();
                for (int i = 0; i < CONNECTIONS; i++) {
                    Connection c = cf.createConnection();
                    connections.add(c);
                    c.start();
                    sessions.add(c.createSession(false, Session.AUTO_ACKNOWLEDGE));
                }
                for (int i = 0; i < CONNECTIONS; i++) {
                    Session s = sessions.get(i);
                    Queue next = s.createQueue(nodeName + "-inbox-" + (i + 1) % CONNECTIONS);
                    s.createProducer(next).send(s.createTextMessage("from " + i));
                }
                for (int i = 0; i < CONNECTIONS; i++) {
                    Session s = sessions.get(i);
                    MessageConsumer inbox = s.createConsumer(s.createQueue(nodeName + "-inbox-" + i));
                    Message m = inbox.receive(10_000);
                    assertNotNull(m, "connection " + i + " received nothing");
                    assertEquals("from " + (i + CONNECTIONS - 1) % CONNECTIONS, m.getBody(String.class));
                }
                return socketThreads(nodeName).size();
            } finally {
                for (Connection c : connections) {
                    c.close();
                }
            }
        }
    }

    private static Set<String> socketThreads(String nodeName) {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(n -> n.startsWith("partita-io-" + nodeName + "-"))
                .collect(Collectors.toSet());
    }
}
