package org.partita.broker.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.MFC;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UFC;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.protocols.raft.ELECTION2;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.protocols.raft.REDIRECT;
import org.jgroups.raft.blocks.ReplicatedStateMachine;
import org.jgroups.stack.Protocol;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.files.PrivateFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every node of the cluster agrees on: the definition of each clustered queue (its options,
 * among them its partition count and hosting nodes, from which {@link Placement} derives where each
 * partition lives). Agreement goes through jgroups-raft, a Raft implementation: a definition is
 * changed through the Raft leader, applied in the same order on every node, and kept in a Raft log
 * in the node's data folder, so it survives restarts. A change needs a majority of the members;
 * reading is local. Message data never goes through here: it moves over the node links.
 */
final class ClusterMetadata implements LayoutChanges.Agreement, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMetadata.class);
    private static final String QUEUE_KEY = "queue:";
    /** A change of a queue's partitions or hosts in progress: {@code layout-change:<queue>}. */
    private static final String CHANGE_KEY = "layout-change:";
    /** How far a node got in it: {@code layout-mark:<queue>:<node>}. */
    private static final String MARK_KEY = "layout-mark:";
    /** How long a change waits for the Raft leader to commit it, over all its tries. */
    private static final long CHANGE_TIMEOUT_MILLIS = 10_000;
    /** The shortest wait of one try (see {@link #attemptMillis}). */
    private static final long MIN_ATTEMPT_MILLIS = 1_000;
    /** How often the Raft leader sends followers what they miss, the commit index among it. */
    private static final long RESEND_MILLIS = 200;
    /** How often a request waiting for an election looks for the new leader. */
    private static final long LEADER_POLL_MILLIS = 100;

    private final JChannel channel;
    private final ReplicatedStateMachine<String, String> state;
    private final Map<String, String> queues = new ConcurrentHashMap<>();
    private final Map<String, String> changesInProgress = new ConcurrentHashMap<>();
    private final Map<String, String> marks = new ConcurrentHashMap<>();
    private final Listener listener;
    /** True until the entries read back from the Raft log at start are applied. */
    private boolean replaying = true;
    /** Raft calls block until committed: they run here, never on a network or queue thread. */
    private final ExecutorService changes = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "partita-cluster-changes");
        t.setDaemon(true);
        return t;
    });

    /** What a node hears of the agreed state, in the order it was agreed. */
    @FunctionalInterface
    interface Listener {
        /** A clustered queue's definition was agreed (null: the queue was removed). */
        void queue(String queue, String options);

        /** A change of a queue's layout began ({@code change} = {@link LayoutChange#encode}), or ended (null). */
        default void layoutChange(String queue, String change) {}

        /** A node said how far it got in a layout change ({@link LayoutChange.Mark#encode}). */
        default void layoutMark(String queue, String node, String mark) {}
    }

    /**
     * Joins the consensus group of the cluster. {@code listener} hears first the state replayed from
     * the Raft log as it stands at the end of the replay (so a queue whose layout changed is never
     * set back to an older layout on the way), then changes as they commit.
     */
    ClusterMetadata(ClusterConfig cluster, String nodeName, Path dataDir, Listener listener) throws Exception {
        this(cluster, nodeName, cluster.member(nodeName).port(), dataDir, listener);
    }

    /** As above, for a node listening on a port other than its member entry's (behind a port forward). */
    ClusterMetadata(ClusterConfig cluster, String nodeName, int listenPort, Path dataDir, Listener listener)
            throws Exception {
        ClusterConfig.Member self = cluster.member(nodeName);
        Path raftDir = dataDir.resolve("raft");
        PrivateFiles.folder(raftDir);
        this.listener = listener;
        channel = new JChannel(stack(cluster, self, listenPort, raftDir)).name(nodeName);
        state = new ReplicatedStateMachine<String, String>(channel)
                .raftId(nodeName)
                .timeout(attemptMillis(cluster));
        state.addNotificationListener(new ReplicatedStateMachine.Notification<>() {
            @Override
            public void put(String key, String value, String old) {
                // a change tried again after a try that timed out but was committed after all puts the
                // same value twice: the second changes nothing, and must not start a layout change again
                if (!java.util.Objects.equals(value, old)) {
                    agreed(key, value);
                }
            }

            @Override
            public void remove(String key, String old) {
                if (old != null) { // removed twice (tried again): nothing to tell
                    agreed(key, null);
                }
            }

            @Override
            public void get(String key, String value) {}
        });
        channel.connect("partita-" + cluster.name());
        synchronized (this) {
            replaying = false;
            queues.forEach(listener::queue);
            changesInProgress.forEach(listener::layoutChange);
            marks.forEach((key, mark) -> {
                int colon = key.lastIndexOf(':');
                listener.layoutMark(key.substring(0, colon), key.substring(colon + 1), mark);
            });
        }
        PrivateFiles.tree(raftDir); // the Raft log files just opened
        LOG.info(
                "joined the consensus group of cluster {} as {} (port {})",
                cluster.name(),
                nodeName,
                listenPort + cluster.consensusPortOffset());
    }

    /** An entry was applied (value null: removed); while the log is replayed, only the state is kept. */
    private synchronized void agreed(String key, String value) {
        if (key.startsWith(QUEUE_KEY)) {
            String queue = key.substring(QUEUE_KEY.length());
            keep(queues, queue, value);
            if (!replaying) {
                listener.queue(queue, value);
            }
        } else if (key.startsWith(CHANGE_KEY)) {
            String queue = key.substring(CHANGE_KEY.length());
            keep(changesInProgress, queue, value);
            if (!replaying) {
                listener.layoutChange(queue, value);
            }
        } else if (key.startsWith(MARK_KEY)) {
            String rest = key.substring(MARK_KEY.length());
            keep(marks, rest, value);
            int colon = rest.lastIndexOf(':');
            if (!replaying && colon > 0 && value != null) {
                listener.layoutMark(rest.substring(0, colon), rest.substring(colon + 1), value);
            }
        }
    }

    private static void keep(Map<String, String> map, String key, String value) {
        if (value == null) {
            map.remove(key);
        } else {
            map.put(key, value);
        }
    }

    /**
     * @param listenPort the node's own port: its consensus port binds at the same offset from it, while
     *                   the others reach it at its member entry's port plus that offset (the same unless
     *                   a port forward or proxy stands between)
     */
    private static List<Protocol> stack(ClusterConfig cluster, ClusterConfig.Member self, int listenPort, Path raftDir)
            throws Exception {
        List<InetSocketAddress> peers = new ArrayList<>();
        for (ClusterConfig.Member m : cluster.members()) {
            peers.add(new InetSocketAddress(m.host(), m.port() + cluster.consensusPortOffset()));
        }
        TCP transport = new TCP();
        transport.setBindAddr(InetAddress.getByName(self.host()));
        transport.setBindPort(listenPort + cluster.consensusPortOffset());
        if (listenPort != self.port()) {
            transport.setExternalAddr(InetAddress.getByName(self.host()));
            transport.setExternalPort(self.port() + cluster.consensusPortOffset());
        }
        transport.setPortRange(0);
        List<Protocol> p = new ArrayList<>();
        p.add(transport);
        p.add(new TCPPING().setInitialHosts(peers).setPortRange(0));
        p.add(new MERGE3().setMinInterval(2_000).setMaxInterval(5_000));
        p.add(new FD_ALL3().setTimeout(cluster.downAfterMillis()).setInterval(cluster.heartbeatMillis()));
        p.add(new VERIFY_SUSPECT2());
        p.add(new NAKACK2());
        p.add(new UNICAST3());
        p.add(new STABLE());
        p.add(new GMS().setJoinTimeout(1_000));
        p.add(new UFC());
        p.add(new MFC());
        p.add(new FRAG4());
        // ELECTION2, not ELECTION: its pre-vote runs when a view merges back after a node was silent
        // (paused, cut off), where ELECTION could keep a leader nobody followed and start no election,
        // leaving every member up and none leading until a restart (jgroups-raft issues 211 and 306)
        p.add(new ELECTION2());
        // followers hear of a commit at the leader's next resend: a layout change takes several
        // agreements in a row while its queue's sends wait, so not once a second (the default).
        // sendCommitsImmediately would tell them at once, but with it three nodes started together
        // did not agree on a declared queue within a minute (ClusterCrashTest): not used.
        p.add(new RAFT()
                .members(cluster.memberNames())
                .raftId(self.name())
                .logDir(raftDir.toString())
                .resendInterval(RESEND_MILLIS));
        p.add(new REDIRECT());
        return p;
    }

    /** The agreed definition of a clustered queue, or null if there is none. */
    @Override
    public String queue(String name) {
        return queues.get(name);
    }

    Map<String, String> queues() {
        return Map.copyOf(queues);
    }

    /**
     * The definition the cluster agreed for a queue, read through the Raft leader so that a change
     * committed on another node a moment ago is seen; null if there is none.
     */
    CompletableFuture<String> lookup(String name) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return onLeader(() -> state.get(QUEUE_KEY + name));
                    } catch (Exception e) {
                        throw new IllegalStateException(
                                "cannot ask the cluster about queue '" + name + "' (a majority of"
                                        + " its nodes must be up): " + e.getMessage(),
                                e);
                    }
                },
                changes);
    }

    /** Defines or changes a clustered queue; completes once a majority committed it. */
    @Override
    public CompletableFuture<Void> defineQueue(String name, String options) {
        return CompletableFuture.runAsync(
                () -> {
                    try {
                        onLeader(() -> state.put(QUEUE_KEY + name, options));
                    } catch (Exception e) {
                        throw new IllegalStateException(
                                "cluster could not agree on queue '" + name + "' (a majority of "
                                        + "its nodes must be up): " + e.getMessage(),
                                e);
                    }
                },
                changes);
    }

    /** The layout change of a queue in progress as agreed so far, or null. */
    @Override
    public String layoutChange(String queue) {
        return changesInProgress.get(queue);
    }

    /** Every node's mark in a queue's layout change, by node. */
    Map<String, String> layoutMarks(String queue) {
        Map<String, String> out = new java.util.HashMap<>();
        String prefix = queue + ":";
        marks.forEach((k, v) -> {
            if (k.startsWith(prefix) && k.indexOf(':', prefix.length()) < 0) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }

    /** Begins ({@code change} not null) or ends (null) a change of a queue's layout, once agreed. */
    @Override
    public CompletableFuture<Void> layoutChange(String queue, String change) {
        return agree(CHANGE_KEY + queue, change, "the layout change of queue '" + queue + "'");
    }

    /** Tells every node how far this one got in a queue's layout change. */
    @Override
    public CompletableFuture<Void> layoutMark(String queue, String node, String mark) {
        return agree(
                MARK_KEY + queue + ":" + node,
                mark,
                "node " + node + "'s part in the layout change of queue '" + queue + "'");
    }

    private CompletableFuture<Void> agree(String key, String value, String what) {
        return CompletableFuture.runAsync(
                () -> {
                    try {
                        onLeader(() -> value == null ? state.remove(key) : state.put(key, value));
                    } catch (Exception e) {
                        throw new IllegalStateException(
                                "cluster could not agree on " + what + " (a majority of its nodes must" + " be up): "
                                        + e.getMessage(),
                                e);
                    }
                },
                changes);
    }

    /** Removes a clustered queue's definition everywhere. */
    CompletableFuture<Void> removeQueue(String name) {
        return CompletableFuture.runAsync(
                () -> {
                    try {
                        onLeader(() -> state.remove(QUEUE_KEY + name));
                    } catch (Exception e) {
                        throw new IllegalStateException(
                                "cluster could not agree on removing queue '" + name + "': " + e.getMessage(), e);
                    }
                },
                changes);
    }

    /**
     * How long one try of a change waits for its commit: the time a lost leader takes to be noticed
     * ({@code downAfterMillis}), at least a second, at most the whole {@link #CHANGE_TIMEOUT_MILLIS}. A
     * request handed to a leader that was just killed is answered by nobody: with the whole timeout for
     * one try, ending a layout change at such a moment failed after 10 s although the next leader was
     * elected 3 s into them, and the sends held by the change waited 15 s more.
     */
    static long attemptMillis(ClusterConfig cluster) {
        return Math.min(CHANGE_TIMEOUT_MILLIS, Math.max(MIN_ATTEMPT_MILLIS, cluster.downAfterMillis()));
    }

    /**
     * Runs a Raft request, waiting for a leader when there is none yet: right after the nodes start
     * (or after the leader was lost) an election takes a moment, and a queue declared or named by a
     * client then should wait for it rather than fail. Each try waits {@link #attemptMillis} for its
     * commit, and a try that timed out is made again (the same key set to the same value, or removed,
     * again: its effect is the same if the first try was committed after all). Gives up after {@link
     * #CHANGE_TIMEOUT_MILLIS}.
     */
    private <T> T onLeader(RaftCall<T> call) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(CHANGE_TIMEOUT_MILLIS);
        while (true) {
            try {
                return call.run();
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e; // a request that timed out waiting for its commit used the time up at once
                }
                Thread.sleep(LEADER_POLL_MILLIS);
            }
        }
    }

    @FunctionalInterface
    private interface RaftCall<T> {
        T run() throws Exception;
    }

    /** The node the Raft group currently follows, for the admin view; null while there is none. */
    String leader() {
        RAFT raft = channel.getProtocolStack().findProtocol(RAFT.class);
        return raft == null || raft.leader() == null ? null : raft.leader().toString();
    }

    @Override
    public void close() {
        changes.shutdownNow();
        channel.close();
    }
}
