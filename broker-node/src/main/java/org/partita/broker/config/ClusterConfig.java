package org.partita.broker.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The cluster a node belongs to: a name and a static list of member nodes, the same on every node.
 * Clients and node links use each member's address; the consensus library (jgroups-raft) that
 * keeps clustered queue definitions agreed listens on each member's port plus
 * {@code consensusPortOffset}, the replica server of replicated partitions (Apache Ratis) on its port
 * plus twice that.
 *
 * @param heartbeatMillis how often a node pings each other member over its link
 * @param downAfterMillis a member that has not answered for this long is marked down
 * @param secret          what nodes present to each other when they link (empty: members are
 *                        recognised by name only, fit for loopback and trusted networks)
 * @param relayoutTimeoutMillis how long a change of a clustered queue's partitions or hosts may wait
 *                        for what the old layout holds to drain before it is abandoned
 * @param replicaLog      how much of each replica set's log a node keeps
 */
public record ClusterConfig(
        String name,
        List<Member> members,
        int consensusPortOffset,
        long heartbeatMillis,
        long downAfterMillis,
        String secret,
        long relayoutTimeoutMillis,
        ReplicaLog replicaLog) {

    /**
     * How much of each replica set's Raft log a node keeps: every {@code markEntries} entries a
     * replica marks what its store holds, and the log before the mark is dropped, but never its last
     * {@code keptEntries} entries, a file of {@code segmentBytes} at a time. A follower further behind
     * is sent a copy of the leader's store. And how long each replica remembers the messages it
     * applied from the log ({@code sentAgainWindowMillis}), so that a send made again within that time
     * is stored once.
     */
    public record ReplicaLog(int markEntries, int keptEntries, int segmentBytes, long sentAgainWindowMillis) {
        /** Far longer than a client's failover takes. */
        public static final long DEFAULT_SENT_AGAIN_WINDOW_MILLIS = 120_000;

        /** With log files of a share of this JVM's heap ({@link HeapBudgets#replicaSegmentBytes}). */
        public static final ReplicaLog DEFAULT = new ReplicaLog(
                10_000, 20_000, HeapBudgets.current().replicaSegmentBytes(), DEFAULT_SENT_AGAIN_WINDOW_MILLIS);

        public ReplicaLog {
            if (markEntries < 1 || keptEntries < markEntries || segmentBytes < (64 << 10)) {
                throw new IllegalArgumentException("the replica log needs markEntries of 1 or more, keptEntries of"
                        + " markEntries or more (a follower sent a copy of the store made at one mark must find the"
                        + " entries after it in the log, kept until the next) and segmentBytes of 65536 or more, not "
                        + markEntries + ", " + keptEntries + ", " + segmentBytes);
            }
            if (sentAgainWindowMillis < 1) {
                throw new IllegalArgumentException(
                        "sentAgainWindowMillis must be 1 or more, not " + sentAgainWindowMillis);
            }
        }

        /** Kept as given, sends made again remembered for the default window. */
        public ReplicaLog(int markEntries, int keptEntries, int segmentBytes) {
            this(markEntries, keptEntries, segmentBytes, DEFAULT_SENT_AGAIN_WINDOW_MILLIS);
        }
    }

    /** One member node: its name and the address clients and other nodes reach it at. */
    public record Member(String name, String host, int port) {
        public Member {
            if (name == null || name.isBlank() || host == null || host.isBlank() || port <= 0 || port > 65535) {
                throw new IllegalArgumentException("a cluster member needs a name, a host and a port from 1 to 65535");
            }
        }

        @Override
        public String toString() {
            return name + "@" + host + ":" + port;
        }
    }

    public static final int DEFAULT_CONSENSUS_PORT_OFFSET = 1000;
    public static final long DEFAULT_HEARTBEAT_MILLIS = 1_000;
    public static final long DEFAULT_DOWN_AFTER_MILLIS = 5_000;
    public static final long DEFAULT_RELAYOUT_TIMEOUT_MILLIS = 40_000;

    /** The cluster without a layout change timeout of its own (the default). */
    public ClusterConfig(
            String name,
            List<Member> members,
            int consensusPortOffset,
            long heartbeatMillis,
            long downAfterMillis,
            String secret) {
        this(
                name,
                members,
                consensusPortOffset,
                heartbeatMillis,
                downAfterMillis,
                secret,
                DEFAULT_RELAYOUT_TIMEOUT_MILLIS);
    }

    /** The cluster with the default replica log. */
    public ClusterConfig(
            String name,
            List<Member> members,
            int consensusPortOffset,
            long heartbeatMillis,
            long downAfterMillis,
            String secret,
            long relayoutTimeoutMillis) {
        this(
                name,
                members,
                consensusPortOffset,
                heartbeatMillis,
                downAfterMillis,
                secret,
                relayoutTimeoutMillis,
                ReplicaLog.DEFAULT);
    }

    public ClusterConfig {
        members = List.copyOf(members);
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a cluster needs a name");
        }
        if (members.isEmpty()) {
            throw new IllegalArgumentException("cluster '" + name + "' lists no nodes");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Member m : members) {
            if (!names.add(m.name())) {
                throw new IllegalArgumentException("cluster '" + name + "' lists node '" + m.name() + "' twice");
            }
        }
        if (heartbeatMillis <= 0 || downAfterMillis <= heartbeatMillis) {
            throw new IllegalArgumentException("cluster heartbeat must be positive and shorter than downAfter");
        }
        if (consensusPortOffset == 0
                || members.stream()
                        .anyMatch(m -> m.port() + consensusPortOffset <= 0 || m.port() + consensusPortOffset > 65535)) {
            throw new IllegalArgumentException("consensusPortOffset " + consensusPortOffset
                    + " must move every member's port to another port from 1 to 65535");
        }
        if (members.stream()
                .anyMatch(m -> m.port() + 2 * consensusPortOffset <= 0 || m.port() + 2 * consensusPortOffset > 65535)) {
            throw new IllegalArgumentException("consensusPortOffset " + consensusPortOffset + " must leave twice"
                    + " itself (the replica server's port) a port from 1 to 65535 for every member");
        }
        secret = secret == null ? "" : secret;
        replicaLog = replicaLog == null ? ReplicaLog.DEFAULT : replicaLog;
        if (relayoutTimeoutMillis <= 0) {
            throw new IllegalArgumentException("relayoutTimeoutMillis must be positive");
        }
    }

    /**
     * Parses a node list: {@code node1@127.0.0.1:61700, node2@127.0.0.1:61701}.
     *
     * @throws IllegalArgumentException naming the entry that is not {@code name@host:port}
     */
    public static List<Member> parseMembers(String list) {
        List<Member> out = new ArrayList<>();
        for (String entry : list.split(",")) {
            String e = entry.strip();
            if (e.isEmpty()) {
                continue;
            }
            int at = e.indexOf('@');
            int colon = e.lastIndexOf(':');
            if (at <= 0 || colon < at + 2 || colon == e.length() - 1) {
                throw new IllegalArgumentException("'" + e + "' is not name@host:port");
            }
            try {
                out.add(new Member(
                        e.substring(0, at), e.substring(at + 1, colon), Integer.parseInt(e.substring(colon + 1))));
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("'" + e + "' has no port number");
            }
        }
        return out;
    }

    public static ClusterConfig of(String name, List<Member> members) {
        return new ClusterConfig(
                name, members, DEFAULT_CONSENSUS_PORT_OFFSET, DEFAULT_HEARTBEAT_MILLIS, DEFAULT_DOWN_AFTER_MILLIS, "");
    }

    public Member member(String nodeName) {
        for (Member m : members) {
            if (m.name().equals(nodeName)) {
                return m;
            }
        }
        throw new IllegalArgumentException(
                "node '" + nodeName + "' is not a member of cluster '" + name + "' (" + members + ")");
    }

    public boolean isMember(String nodeName) {
        return members.stream().anyMatch(m -> m.name().equals(nodeName));
    }

    public List<String> memberNames() {
        return members.stream().map(Member::name).toList();
    }

    /**
     * The members as {@code name@host:port}, sorted by name: what two nodes compare when they link,
     * since the order of {@code cluster.nodes} does not matter and its content must be the same.
     */
    public String memberList() {
        return String.join(
                ", ",
                members.stream()
                        .sorted(java.util.Comparator.comparing(Member::name))
                        .map(Member::toString)
                        .toList());
    }

    /**
     * The port of a member's replica server (the Raft groups of replicated partitions): its port plus
     * twice {@code consensusPortOffset}, next to the consensus port by the same step.
     */
    public int replicaPortOf(Member m) {
        return m.port() + 2 * consensusPortOffset;
    }

    public ClusterConfig withConsensusPortOffset(int o) {
        return new ClusterConfig(
                name, members, o, heartbeatMillis, downAfterMillis, secret, relayoutTimeoutMillis, replicaLog);
    }

    public ClusterConfig withHeartbeat(long heartbeat, long downAfter) {
        return new ClusterConfig(
                name, members, consensusPortOffset, heartbeat, downAfter, secret, relayoutTimeoutMillis, replicaLog);
    }

    public ClusterConfig withSecret(String s) {
        return new ClusterConfig(
                name,
                members,
                consensusPortOffset,
                heartbeatMillis,
                downAfterMillis,
                s,
                relayoutTimeoutMillis,
                replicaLog);
    }

    public ClusterConfig withRelayoutTimeout(long millis) {
        return new ClusterConfig(
                name, members, consensusPortOffset, heartbeatMillis, downAfterMillis, secret, millis, replicaLog);
    }
}
