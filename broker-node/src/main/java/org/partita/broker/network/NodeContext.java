package org.partita.broker.network;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.partita.broker.network.connection.ClientConnection;
import org.partita.broker.network.flow.TrafficCounter;
import org.partita.broker.security.Authenticator;
import org.partita.broker.security.LoginDelays;
import org.partita.broker.security.LoginGate;

/**
 * Node-wide facts and registries the connections share: name, limits, authentication, client ids,
 * the open connections and the bytes they moved.
 */
public final class NodeContext implements org.partita.broker.admin.ConnectionRegistry, AutoCloseable {
    private final String nodeName;
    private final int maxFrameSize;
    private final Authenticator authenticator;
    private final LoginGate logins;
    private final org.partita.broker.config.FlowLimits limits;
    private volatile org.partita.broker.security.Authorizer authorizer =
            org.partita.broker.security.Authorizer.ALLOW_ALL;
    private volatile org.partita.broker.admin.AdminCommands admin;
    private volatile ClusterFront cluster;
    private final Map<String, Object> clientIds = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong temporaryIds = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.Set<ClientConnection> open = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.LongAdder bytesIn = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder bytesOut = new java.util.concurrent.atomic.LongAdder();

    public NodeContext(String nodeName, int maxFrameSize, Authenticator authenticator) {
        this(nodeName, maxFrameSize, authenticator, org.partita.broker.config.FlowLimits.defaults());
    }

    public NodeContext(
            String nodeName,
            int maxFrameSize,
            Authenticator authenticator,
            org.partita.broker.config.FlowLimits limits) {
        this.nodeName = nodeName;
        this.maxFrameSize = maxFrameSize;
        this.authenticator = authenticator;
        this.logins = new LoginGate(authenticator, LoginDelays.defaults());
        this.limits = limits;
    }

    /** What one client may open and make the node hold. */
    public org.partita.broker.config.FlowLimits limits() {
        return limits;
    }

    public String nodeName() {
        return nodeName;
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }

    public org.partita.broker.admin.AdminCommands admin() {
        return admin;
    }

    public void admin(org.partita.broker.admin.AdminCommands commands) {
        this.admin = commands;
    }

    private org.partita.broker.store.large.LargeBodies largeBodies;

    /** Where large message bodies are kept; null on a node that takes none (tests of one part). */
    public org.partita.broker.store.large.LargeBodies largeBodies() {
        return largeBodies;
    }

    public void largeBodies(org.partita.broker.store.large.LargeBodies bodies) {
        this.largeBodies = bodies;
    }

    /** The cluster this node belongs to, or null on a node of its own. */
    public ClusterFront cluster() {
        return cluster;
    }

    public void cluster(ClusterFront front) {
        this.cluster = front;
    }

    public Authenticator authenticator() {
        return authenticator;
    }

    /** What users may do; without a users file everyone may do everything. */
    public void authorizer(org.partita.broker.security.Authorizer a) {
        this.authorizer = a;
    }

    public org.partita.broker.security.Authorizer authorizer() {
        return authorizer;
    }

    /**
     * Whether connections log in with a password. A node that does not check passwords knows no
     * users, so it takes admin commands only from its own machine (loopback).
     */
    public boolean checksPasswords() {
        return authenticator.checksPasswords();
    }

    /** Where connections' logins are checked: off the network threads, failures delayed. */
    public LoginGate logins() {
        return logins;
    }

    @Override
    public long failedLogins() {
        return logins.failedLogins();
    }

    @Override
    public void close() {
        logins.close();
    }

    @Override
    public java.util.List<org.partita.broker.admin.ConnectionInfo> connections() {
        return open.stream()
                .map(ClientConnection::info)
                .sorted(java.util.Comparator.comparingLong(org.partita.broker.admin.ConnectionInfo::openedAt))
                .toList();
    }

    @Override
    public long bytesIn() {
        return bytesIn.sum();
    }

    @Override
    public long bytesOut() {
        return bytesOut.sum();
    }

    public TrafficCounter newTrafficCounter() {
        return new TrafficCounter(bytesIn, bytesOut);
    }

    /** Registers a new connection; false (and not registered) if the node has {@code limits.connections} already. */
    public boolean opened(ClientConnection c) {
        synchronized (open) {
            if (open.size() >= limits.connections()) {
                return false;
            }
            return open.add(c);
        }
    }

    public void closed(ClientConnection c) {
        open.remove(c);
    }

    public long nextTemporaryId() {
        return temporaryIds.incrementAndGet();
    }

    /** A client id is held by one connection at a time (JMS 6.1.2). */
    public boolean claimClientId(String clientId, Object owner) {
        return clientIds.putIfAbsent(clientId, owner) == null;
    }

    public void releaseClientId(String clientId, Object owner) {
        clientIds.remove(clientId, owner);
    }
}
