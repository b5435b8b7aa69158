package org.partita.broker.network;

import org.partita.broker.security.Authenticator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Node-wide facts and registries the connections share: name, limits, authentication, client ids. */
public final class NodeContext {
    private final String nodeName;
    private final int maxFrameSize;
    private final Authenticator authenticator;
    private volatile org.partita.broker.admin.AdminCommands admin;
    private final Map<String, Object> clientIds = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong temporaryIds = new java.util.concurrent.atomic.AtomicLong();

    public NodeContext(String nodeName, int maxFrameSize, Authenticator authenticator) {
        this.nodeName = nodeName;
        this.maxFrameSize = maxFrameSize;
        this.authenticator = authenticator;
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

    public Authenticator authenticator() {
        return authenticator;
    }

    long nextTemporaryId() {
        return temporaryIds.incrementAndGet();
    }

    /** A client id is held by one connection at a time (JMS 6.1.2). */
    boolean claimClientId(String clientId, Object owner) {
        return clientIds.putIfAbsent(clientId, owner) == null;
    }

    void releaseClientId(String clientId, Object owner) {
        clientIds.remove(clientId, owner);
    }
}
