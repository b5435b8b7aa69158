package org.partita.broker.network.connection;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.partita.broker.admin.AdminCommands;
import org.partita.broker.admin.NodeReader;
import org.partita.broker.config.FlowLimits;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.core.Broker;
import org.partita.broker.core.BrokerSettings;
import org.partita.broker.core.ClusterHooks;
import org.partita.broker.network.NodeContext;
import org.partita.broker.network.flow.NodeMemory;
import org.partita.broker.security.Authenticator;
import org.partita.broker.store.h2.H2MessageStore;

/**
 * A node's client connections without a socket: a real {@link Broker} over a real H2 store in a
 * folder, the node-wide context and budgets a {@link NodeServer} gives its connections, and
 * {@link ClientConnection}s in {@link TestChannel}s, to which a test writes decoded frames as a client
 * would and from which it reads the frames the node answers ({@link TestClient}). One thread, the
 * test's, is the event loop of every connection ({@link TestEventLoop}): create the fixture in the
 * test method itself, since JUnit runs each lifecycle method on a thread of its own here
 * (junit-platform.properties). Every wait is bounded.
 */
final class ConnectionFixture implements AutoCloseable {
    /** Where a client connects from unless a test says otherwise. */
    static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40_000);

    static final int MAX_FRAME_SIZE = 1 << 20;

    private final Path dataDir;
    private final FlowLimits limits;
    private final Authenticator authenticator;
    private final TestEventLoop loop = new TestEventLoop();
    private final List<TestClient> clients = new ArrayList<>();
    private H2MessageStore store;
    private Broker broker;
    private NodeContext node;
    private NodeMemory memory;

    ConnectionFixture(Path dataDir) {
        this(dataDir, FlowLimits.defaults());
    }

    ConnectionFixture(Path dataDir, FlowLimits limits) {
        this(dataDir, limits, Authenticator.ALLOW_ALL);
    }

    ConnectionFixture(Path dataDir, FlowLimits limits, Authenticator authenticator) {
        this.dataDir = dataDir;
        this.limits = limits;
        this.authenticator = authenticator;
        open();
    }

    private void open() {
        store = H2MessageStore.open(dataDir, true);
        broker = new Broker(store, BrokerSettings.DEFAULTS, ClusterHooks.STANDALONE);
        node = new NodeContext("test-node", MAX_FRAME_SIZE, authenticator, limits);
        memory = new NodeMemory(
                limits.inFlightBytes(),
                limits.nonPersistentBytes(),
                limits.openTransactionBytes(),
                broker::unstoredBytes);
        NodeReader reader = new NodeReader(
                broker,
                NodeConfig.defaults().withDataDir(dataDir),
                node,
                () -> "partita://localhost",
                () -> -1,
                memory::inFlightBytes);
        node.admin(new AdminCommands(reader));
    }

    Broker broker() {
        return broker;
    }

    NodeContext node() {
        return node;
    }

    TestEventLoop loop() {
        return loop;
    }

    /** A new connection from the node's own machine, before its HELLO. */
    TestClient connect() {
        return connect(LOOPBACK);
    }

    /** A new connection from {@code from}, before its HELLO. */
    TestClient connect(InetSocketAddress from) {
        try {
            TestChannel channel =
                    new TestChannel(loop, from, new ClientConnection(broker, node, node.newTrafficCounter(), memory));
            TestClient client = new TestClient(channel, loop);
            clients.add(client);
            return client;
        } catch (Exception e) {
            throw new AssertionError("the connection did not open", e);
        }
    }

    /** A new connection, past its handshake. */
    TestClient login() {
        TestClient client = connect();
        client.hello();
        return client;
    }

    /** Closes every connection and the node, then opens the node again on the same folder. */
    void restart() {
        closeAll();
        open();
    }

    @Override
    public void close() {
        closeAll();
    }

    private void closeAll() {
        for (TestClient c : clients) {
            c.disconnect();
        }
        clients.clear();
        node.close();
        broker.close();
        store.close();
    }
}
