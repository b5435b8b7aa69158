package org.partita.jms.transport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.partita.protocol.ErrorCode;

/**
 * Nodes for failover tests, without a network: a {@link NodeConnector} whose every connection to a
 * node that is up is a new {@link InMemoryBrokerConnection}. Tests take nodes down (their
 * connections drop) and bring them up, and reach the connection a client holds to each node.
 */
public final class InMemoryNodes implements NodeConnector {
    private final Set<NodeAddress> down = new HashSet<>();
    private final Map<NodeAddress, List<InMemoryBrokerConnection>> connections = new HashMap<>();
    private final Map<NodeAddress, ErrorCode> refusing = new HashMap<>();
    private final Map<NodeAddress, ErrorCode> refusingConsumers = new HashMap<>();
    private final Set<NodeAddress> silentAtFirstSend = new HashSet<>();
    /** Every attempt, in order: which node was tried. */
    private final List<NodeAddress> attempts = new CopyOnWriteArrayList<>();

    public static NodeAddress node(int port) {
        return new NodeAddress("127.0.0.1", port);
    }

    /** The node accepts no connection until {@link #up}; the connections it has drop. */
    public void down(NodeAddress node) {
        List<InMemoryBrokerConnection> lost;
        synchronized (this) {
            down.add(node);
            lost = new ArrayList<>(connections.getOrDefault(node, List.of()));
        }
        lost.forEach(c -> c.drop("connection to the node was closed"));
    }

    public synchronized void up(NodeAddress node) {
        down.remove(node);
    }

    /** The node answers handshakes with this error (AUTHENTICATION_FAILED, say). */
    public synchronized void refuseHandshakes(NodeAddress node, ErrorCode code) {
        refusing.put(node, code);
    }

    /** The node's connections refuse consumer opens with this error. */
    public synchronized void refuseConsumers(NodeAddress node, ErrorCode code) {
        refusingConsumers.put(node, code);
    }

    /** The node's next connection stops answering at its first send: {@link InMemoryBrokerConnection#stopAnsweringAtNextSend}. */
    public synchronized void stopAnsweringAtFirstSend(NodeAddress node) {
        silentAtFirstSend.add(node);
    }

    /** The latest connection made to {@code node}, or null. */
    public synchronized InMemoryBrokerConnection latest(NodeAddress node) {
        List<InMemoryBrokerConnection> all = connections.get(node);
        return all == null || all.isEmpty() ? null : all.get(all.size() - 1);
    }

    public synchronized int connectionsTo(NodeAddress node) {
        return connections.getOrDefault(node, List.of()).size();
    }

    public List<NodeAddress> attempts() {
        return List.copyOf(attempts);
    }

    @Override
    public BrokerConnection connect(NodeAddress node, Login login, ConnectionListener listener, long timeoutMillis) {
        attempts.add(node);
        InMemoryBrokerConnection c;
        synchronized (this) {
            if (down.contains(node)) {
                throw new BrokerError(ErrorCode.INTERNAL, "cannot connect to tcp://" + node + ": Connection refused");
            }
            ErrorCode refusal = refusing.get(node);
            if (refusal != null) {
                throw new BrokerError(refusal, "node " + node + " refuses the handshake");
            }
            c = new InMemoryBrokerConnection();
            ErrorCode consumerRefusal = refusingConsumers.get(node);
            if (consumerRefusal != null) {
                c.refuseConsumerOpens(consumerRefusal, "node " + node + " refuses this consumer");
            }
            if (silentAtFirstSend.remove(node)) {
                c.stopAnsweringAtNextSend();
            }
            connections.computeIfAbsent(node, n -> new ArrayList<>()).add(c);
        }
        if (listener != null) {
            c.setListener(listener);
        }
        c.open(login.user(), login.password(), login.clientId()).join();
        return c;
    }
}
