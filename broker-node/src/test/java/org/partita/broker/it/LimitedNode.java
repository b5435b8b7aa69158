package org.partita.broker.it;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.partita.broker.config.FlowLimits;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * What the flow-control tests share: a node started with the limits under test, the connections a
 * test opened to it, and closing both whatever the test left open.
 */
final class LimitedNode implements AutoCloseable {
    private final List<Connection> connections = new ArrayList<>();
    private PartitaNode node;

    /** Starts the node on a free loopback port with its data in {@code dataDir}. */
    PartitaNode start(Path dataDir, FlowLimits limits) {
        return use(PartitaNode.start(
                NodeConfig.defaults().withPort(0).withDataDir(dataDir).withLimits(limits)));
    }

    /** A node the test started with more than limits (a faulty disk): connected to and closed like one started here. */
    PartitaNode use(PartitaNode started) {
        node = started;
        return node;
    }

    /** A connection to the node, closed with it. */
    Connection connect() throws JMSException {
        Connection c = new PartitaConnectionFactory(node.url()).createConnection();
        connections.add(c);
        return c;
    }

    /** A message of {@code bodyBytes} zero bytes numbered by its {@code seq} property. */
    static BytesMessage numbered(Session s, int seq, int bodyBytes) throws JMSException {
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(new byte[bodyBytes]);
        m.setIntProperty("seq", seq);
        return m;
    }

    @Override
    public void close() {
        connections.forEach(CrashRecoveryTest::closeQuietly);
        if (node != null) {
            node.close();
        }
    }
}
