package org.partita.broker.network.connection;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BoundedMemo;
import org.partita.broker.core.queue.DestinationAddress;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.broker.network.NodeContext;
import org.partita.broker.network.flow.SendWindow;
import org.partita.broker.security.Operation;
import org.partita.protocol.DestinationName;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.ProtocolException;

/**
 * What one client connection holds and who it is, shared by its frame handlers: its sessions and
 * consumers, the numbering of its deliveries, its identity (user, client id, the cluster member it is
 * the link of, what it may do), its temporary destinations and its send window; and the checks every
 * handler makes against them (a session it has, a destination within the node's limits, a permission).
 *
 * <p>Changed on the connection's event loop only. The maps are concurrent and the identity volatile
 * because queue threads record deliveries and the admin listing reads the connection from elsewhere.
 */
final class ConnectionState {
    private final NodeContext node;
    private final Channel channel;
    private final long serial;
    /** Stands for this connection where the core needs an owner: of a client id, of XA branches, for noLocal. */
    private final Object key = new Object();

    private final Map<Integer, ServerSession> sessions = new ConcurrentHashMap<>();
    private final Map<Integer, ServerConsumer> consumers = new ConcurrentHashMap<>();
    private final AtomicLong deliveryIds = new AtomicLong();
    private final ConnectionDestinations destinations;
    private boolean open;
    private volatile String clientId;
    private volatile String user;
    /** What this connection's user may do; node links and connections not yet logged in are not checked. */
    private volatile Access access = Access.UNCHECKED;
    /** The cluster member this connection is the node link of; null for a client. */
    private volatile String peerNode;
    /** Set by the handshake. */
    private SendWindow sendWindow;

    /** @param serial unique on this node: names the connection's private topic subscriptions */
    ConnectionState(Broker broker, NodeContext node, Channel channel, long serial) {
        this.node = node;
        this.channel = channel;
        this.serial = serial;
        this.destinations = new ConnectionDestinations(broker, node);
    }

    Channel channel() {
        return channel;
    }

    Object key() {
        return key;
    }

    long serial() {
        return serial;
    }

    Map<Integer, ServerSession> sessions() {
        return sessions;
    }

    Map<Integer, ServerConsumer> consumers() {
        return consumers;
    }

    /** Numbers the deliveries of every session of the connection: a recover's fence covers them all. */
    AtomicLong deliveryIds() {
        return deliveryIds;
    }

    ConnectionDestinations destinations() {
        return destinations;
    }

    /** Whether the handshake is done. */
    boolean open() {
        return open;
    }

    /** The login was accepted: the connection is open to every frame. */
    void opened(String user, String clientId, Access access) {
        this.clientId = clientId;
        this.user = user;
        this.access = access;
        destinations.access(access);
        this.open = true;
    }

    String clientId() {
        return clientId;
    }

    /** Claimed after the handshake (Connection.setClientID). */
    void clientId(String id) {
        this.clientId = id;
    }

    String user() {
        return user;
    }

    Access access() {
        return access;
    }

    String peerNode() {
        return peerNode;
    }

    void peerNode(String member) {
        this.peerNode = member;
    }

    SendWindow sendWindow() {
        return sendWindow;
    }

    void sendWindow(SendWindow window) {
        this.sendWindow = window;
    }

    /** Runs {@code work} on the connection's event loop: at once when called there, else as a task of it. */
    void onLoop(Runnable work) {
        if (channel.eventLoop().inEventLoop()) {
            work.run();
        } else {
            channel.eventLoop().execute(work);
        }
    }

    /** The session the request names; ILLEGAL_STATE if the connection has none of that id. */
    ServerSession session(int id) {
        ServerSession s = sessions.get(id);
        if (s == null) {
            throw new ProtocolException(ErrorCode.ILLEGAL_STATE, "session " + id + " is not open");
        }
        return s;
    }

    /** A destination named by the client, within the node's name length limit and partition count limit. */
    DestinationName destination(String encoded) {
        return checkedNames.get(encoded, this::checkedName);
    }

    /** Names this connection used, checked: a producer names its destination in every send. */
    private final BoundedMemo<String, DestinationName> checkedNames = new BoundedMemo<>(256);

    private DestinationName checkedName(String encoded) {
        DestinationName d = DestinationName.parse(encoded);
        DestinationAddress address = DestinationAddress.parse(d.name());
        checkNameLength(address.name(), "destination name");
        int partitions = QueueOptions.parse(address.queueOptions(), QueueOptions.DEFAULTS)
                .partitions();
        if (partitions > node.limits().partitionsPerQueue()) {
            throw new IllegalArgumentException("a queue may have at most "
                    + node.limits().partitionsPerQueue() + " partitions, not " + partitions);
        }
        return d;
    }

    void checkNameLength(String name, String what) {
        int max = node.limits().destinationNameLength();
        if (name.length() > max) {
            throw new IllegalArgumentException(
                    "a " + what + " may have at most " + max + " characters, not " + name.length());
        }
    }

    /** Refuses the operation unless this connection's user may perform it on {@code dest}; temporary destinations are open. */
    void authorize(Operation operation, DestinationName dest) {
        if (dest.kind().isTemporary()) {
            return; // only their connection consumes from them (checked apart); replies may come from anyone
        }
        boolean queue = dest.kind().isQueue();
        access.require(
                operation,
                queue ? "queue" : "topic",
                queue ? DestinationAddress.parse(dest.name()).name() : dest.name());
    }

    /** The client's host address, without port: what login delays are kept per. */
    String host() {
        return channel.remoteAddress() instanceof InetSocketAddress a
                ? a.getAddress().getHostAddress()
                : String.valueOf(channel.remoteAddress());
    }

    /** The client's address as {@code host:port}. */
    String remote() {
        return channel.remoteAddress() instanceof InetSocketAddress a
                ? a.getAddress().getHostAddress() + ":" + a.getPort()
                : String.valueOf(channel.remoteAddress());
    }

    boolean fromLoopback() {
        return channel.remoteAddress() instanceof InetSocketAddress a
                && a.getAddress() != null
                && a.getAddress().isLoopbackAddress();
    }
}
