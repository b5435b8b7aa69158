package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.partita.broker.cluster.FreePorts;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.it.ChildNode;

/**
 * Nodes of one cluster, each a child process started from a config file, on free loopback ports
 * (started over on new ports should one be taken between its pick and its bind): what failure tests
 * kill, pause and start again.
 */
public final class ProcessCluster implements AutoCloseable {
    private final Path dir;
    private final String name;
    private final List<String> extraLines;
    private final ChildNode[] nodes;
    private ClusterConfig cluster;
    private int runs;
    /** Whether the nodes reach each other only through {@link LinkProxies}, so that links can be cut. */
    private boolean proxied;

    private LinkProxies proxies;
    /** Per node, the port it listens on (its member entry's, or behind a proxy, one of its own). */
    private final int[] listenPorts;

    /** @param extraLines config lines every node gets besides its name, port, data folder and the cluster's nodes */
    public ProcessCluster(Path dir, String name, int size, List<String> extraLines) {
        this.dir = dir;
        this.name = name;
        this.extraLines = List.copyOf(extraLines);
        this.nodes = new ChildNode[size];
        this.listenPorts = new int[size];
    }

    /**
     * The nodes reach each other only through TCP proxies ({@link #links}), which can cut them off
     * from each other while they run; clients still reach each node directly.
     */
    ProcessCluster proxied() {
        this.proxied = true;
        return this;
    }

    /** The proxies between the nodes of a {@link #proxied} cluster. */
    LinkProxies links() {
        if (proxies == null) {
            throw new IllegalStateException("the cluster was not started proxied()");
        }
        return proxies;
    }

    public ProcessCluster start() throws Exception {
        int offset = ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET;
        int blocks = proxied ? 2 * nodes.length : nodes.length;
        cluster = FreePorts.startOnFreePorts(blocks, offset, ports -> {
            String run = "a" + ++runs;
            List<ClusterConfig.Member> members = new ArrayList<>();
            for (int i = 0; i < nodes.length; i++) {
                members.add(new ClusterConfig.Member("node" + (i + 1), "127.0.0.1", ports.get(i)));
                listenPorts[i] = ports.get(proxied ? nodes.length + i : i);
            }
            ClusterConfig c = ClusterConfig.of(name, members);
            try {
                if (proxied) {
                    proxies = new LinkProxies(
                            ports.subList(0, nodes.length),
                            ports.subList(nodes.length, blocks),
                            new int[] {0, offset, 2 * offset},
                            i -> nodes[i] == null ? -1L : nodes[i].pid());
                }
                for (int i = 0; i < nodes.length; i++) {
                    start(c, i, run);
                }
            } catch (Exception | AssertionError e) {
                closeNodes();
                closeProxies();
                throw e;
            }
            return c;
        });
        return this;
    }

    public int size() {
        return nodes.length;
    }

    public ChildNode node(int i) {
        return nodes[i];
    }

    /** SIGKILL of node {@code i}; returns its exit code (137). */
    public int kill(int i) throws InterruptedException {
        int code = nodes[i].kill();
        nodes[i] = null;
        return code;
    }

    /**
     * Deletes the data folder of node {@code i}, killed before: its disk lost, as when a machine is
     * replaced. {@link #restart} then starts it on an empty folder.
     */
    public void wipe(int i) {
        if (nodes[i] != null) {
            throw new IllegalStateException("node" + (i + 1) + " still runs; kill it first");
        }
        EmbeddedCluster.deleteTree(dataFolder(cluster.members().get(i)));
    }

    /** Starts node {@code i} again, on its port and data folder. */
    public ChildNode restart(int i) throws Exception {
        return start(cluster, i, "r" + ++runs);
    }

    private Path config(ClusterConfig c, int i) throws Exception {
        ClusterConfig.Member m = c.members().get(i);
        StringBuilder list = new StringBuilder();
        for (ClusterConfig.Member x : c.members()) {
            list.append(list.length() == 0 ? "" : ", ").append(x);
        }
        List<String> lines = new ArrayList<>(List.of(
                "nodeName = " + m.name(),
                "port = " + listenPorts[i],
                // a start over on other ports begins with an empty folder
                "data = " + dataFolder(m),
                "cluster.name = " + name,
                "cluster.nodes = " + list));
        lines.addAll(extraLines);
        Path f = dir.resolve(m.name() + ".properties");
        Files.writeString(f, String.join("\n", lines) + "\n");
        return f;
    }

    private Path dataFolder(ClusterConfig.Member m) {
        return dir.resolve("data-" + m.name() + "-" + m.port());
    }

    /**
     * Starts node {@code i} on its fixed port. The port may be taken for a moment by an outgoing
     * connection's ephemeral port (the other nodes keep dialing it, and a dial to a loopback port
     * nobody listens on can take that very port): the node then exits at once, and it is started
     * again, for up to 10 s, as {@code EmbeddedCluster} does.
     */
    private ChildNode start(ClusterConfig c, int i, String run) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (int attempt = 0; ; attempt++) {
            ChildNode n = ChildNode.startWithArgs(
                    dir.resolve("log-" + i + "-" + run + (attempt == 0 ? "" : "-" + attempt)),
                    "--config",
                    config(c, i).toString());
            try {
                nodes[i] = n.awaitReady();
                return nodes[i];
            } catch (AssertionError e) {
                if (!n.stderr().contains("Address already in use") || System.nanoTime() > deadline) {
                    throw e;
                }
                await().pollDelay(Duration.ofMillis(200)).until(() -> true);
            }
        }
    }

    private void closeNodes() throws InterruptedException {
        for (int i = 0; i < nodes.length; i++) {
            if (nodes[i] != null) {
                nodes[i].close();
                nodes[i] = null;
            }
        }
    }

    private void closeProxies() {
        if (proxies != null) {
            proxies.close();
            proxies = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        closeNodes();
        closeProxies();
    }
}
