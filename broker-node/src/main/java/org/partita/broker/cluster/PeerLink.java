package org.partita.broker.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.partita.broker.config.ClusterConfig;
import org.partita.jms.transport.BrokerError;
import org.partita.jms.transport.ConnectionListener;
import org.partita.jms.transport.NettyBrokerConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's link to one other member: a connection over the node's own protocol, opened as a
 * node ({@code $node:<name>} and the cluster's secret), kept alive by a heartbeat, marked down when
 * the other node has not answered for {@code downAfterMillis}, and opened again by itself. What this
 * node sends the other one (forwarded messages, consumers of its partitions) goes over this link;
 * deliveries come back on it.
 */
final class PeerLink implements ConnectionListener, Forwarder.Link, FeedLink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeerLink.class);

    /** Hears when a link comes up or goes down (called on the link's own thread), and tells how this node routes. */
    interface Events {
        void linkUp(PeerLink link);

        void linkDown(PeerLink link);

        /**
         * The layout (partitions, hosts, replicas, leaders) this node routes a queue's messages by now,
         * sent with each forward so that a node still on another layout refuses it; null to say none.
         */
        default String layoutOf(String queue) {
            return null;
        }
    }

    /** What a consumer opened over the link receives. Called on a transport thread. */
    interface Receiver {
        void delivered(long deliveryId, int deliveryCount, int partition, byte[] message);

        void partitions(int[] owned);
    }

    private final ClusterConfig cluster;
    private final ClusterConfig.Member peer;
    private final String self;
    private final int maxFrameSize;
    /** TLS of the link when this node is configured with it; null for plain TCP. */
    private final io.netty.handler.ssl.SslContext tls;

    private final Events events;
    private final ScheduledExecutorService timer;
    private final Map<Integer, Receiver> receivers = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private volatile NettyBrokerConnection connection;
    private volatile long lastAnswerNanos;
    private volatile boolean closed;
    private volatile String lastFailure;

    PeerLink(
            ClusterConfig cluster,
            ClusterConfig.Member peer,
            String self,
            int maxFrameSize,
            io.netty.handler.ssl.SslContext tls,
            Events events) {
        this.tls = tls;
        this.cluster = cluster;
        this.peer = peer;
        this.self = self;
        this.maxFrameSize = maxFrameSize;
        this.events = events;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "partita-link-" + peer.name());
            t.setDaemon(true);
            return t;
        });
    }

    void start() {
        timer.scheduleWithFixedDelay(this::tick, 0, cluster.heartbeatMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public String peer() {
        return peer.name();
    }

    /**
     * The peer has just linked to this node, so it is up: this side links now instead of at its next
     * heartbeat. Without it, a node started before its peers left its links down for up to a
     * heartbeat after they came up, and messages and consumer feeds that need them waited.
     */
    void linkNow() {
        if (closed || connection != null) {
            return;
        }
        try {
            timer.execute(() -> {
                if (!closed && connection == null) {
                    connect();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the link is closing
        }
    }

    @Override
    public boolean isUp() {
        return connection != null;
    }

    @Override
    public java.util.concurrent.CompletableFuture<Void> forward(String queue, int deliveryCount, byte[] message) {
        NettyBrokerConnection c = connection;
        return c == null ? null : c.forward(queue, events.layoutOf(queue), deliveryCount, message);
    }

    /** The open connection, or null while the link is down. */
    NettyBrokerConnection connection() {
        return connection;
    }

    @Override
    public FeedConnection feedConnection() {
        NettyBrokerConnection c = connection;
        return c == null ? null : new NettyFeedConnection(c);
    }

    /** Why the last attempt to link failed, for the admin view; null when up. */
    String lastFailure() {
        return lastFailure;
    }

    @Override
    public int nextId() {
        return ids.incrementAndGet();
    }

    @Override
    public void register(int consumerId, Receiver receiver) {
        receivers.put(consumerId, receiver);
    }

    @Override
    public void unregister(int consumerId) {
        receivers.remove(consumerId);
    }

    private void tick() {
        if (closed) {
            return;
        }
        NettyBrokerConnection c = connection;
        if (c == null) {
            connect();
        } else if (System.nanoTime() - lastAnswerNanos > TimeUnit.MILLISECONDS.toNanos(cluster.downAfterMillis())) {
            down(c, "no answer for " + cluster.downAfterMillis() + " ms");
        } else {
            c.ping().thenRun(() -> lastAnswerNanos = System.nanoTime());
        }
    }

    private void connect() {
        NettyBrokerConnection c = null;
        try {
            c = NettyBrokerConnection.connect(peer.host(), peer.port(), maxFrameSize, cluster.downAfterMillis(), tls);
            c.setListener(this);
            c.open(ClusterNode.LINK_USER_PREFIX + self, cluster.secret(), null)
                    .get(cluster.downAfterMillis(), TimeUnit.MILLISECONDS);
            checkSameMembers(c);
            lastAnswerNanos = System.nanoTime();
            connection = c;
            lastFailure = null;
            LOG.info("node {} is up: linked to {}", peer.name(), peer);
            events.linkUp(this);
        } catch (Exception e) {
            if (c != null) {
                c.abort();
            }
            String why = e instanceof OtherMembers || e.getCause() == null
                    ? e.getMessage()
                    : e.getCause().getMessage();
            if (!java.util.Objects.equals(why, lastFailure)) {
                if (e instanceof OtherMembers) {
                    LOG.error("not linking to node {} ({}): {}", peer.name(), peer, why);
                } else {
                    LOG.debug("cannot link to node {} ({}): {}", peer.name(), peer, why);
                }
            }
            lastFailure = why;
        }
    }

    /**
     * Two nodes whose {@code cluster.nodes} name other members (or other addresses) would each place
     * partitions and count majorities by their own list: such a link is refused, with an error on
     * both sides (each checks the other over its own link). The order of the lists does not matter.
     */
    private void checkSameMembers(NettyBrokerConnection c) throws Exception {
        String theirs = c.admin("cluster.members", "")
                .get(cluster.downAfterMillis(), TimeUnit.MILLISECONDS)
                .strip();
        String ours = cluster.memberList();
        if (!theirs.equals(ours)) {
            throw new OtherMembers("node " + peer.name() + " lists other members of cluster " + cluster.name()
                    + " than this node: there [" + theirs + "], here [" + ours + "]; give every node the same"
                    + " cluster.nodes");
        }
    }

    /** The other node's list of members is not this node's. */
    private static final class OtherMembers extends Exception {
        OtherMembers(String message) {
            super(message);
        }
    }

    private void down(NettyBrokerConnection c, String why) {
        synchronized (this) {
            if (connection != c || c == null) {
                return;
            }
            connection = null;
        }
        lastFailure = why;
        receivers.clear();
        c.abort();
        LOG.warn("node {} is down: {}", peer.name(), why);
        events.linkDown(this);
    }

    @Override
    public void onDelivery(int consumerId, long deliveryId, int deliveryCount, int partition, byte[] message) {
        Receiver r = receivers.get(consumerId);
        if (r != null) {
            r.delivered(deliveryId, deliveryCount, partition, message);
        }
    }

    @Override
    public void onPartitions(int consumerId, int[] owned) {
        Receiver r = receivers.get(consumerId);
        if (r != null) {
            r.partitions(owned);
        }
    }

    @Override
    public void onFailure(BrokerError cause) {
        NettyBrokerConnection c = connection;
        if (c != null) {
            timer.execute(() -> down(c, "link lost: " + cause.getMessage()));
        }
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        NettyBrokerConnection c = connection;
        connection = null;
        if (c != null) {
            c.abort();
        }
    }
}
