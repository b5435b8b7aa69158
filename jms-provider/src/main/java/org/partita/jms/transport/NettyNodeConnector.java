package org.partita.jms.transport;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.protocol.ErrorCode;

/** Connects over TCP (or TLS for {@code ssl://} nodes) with Netty and completes the handshake, both within one timeout. */
public final class NettyNodeConnector implements NodeConnector {
    private final int maxFrameSize;
    private final ClientTls tls;
    private final long heartbeatMillis;

    public NettyNodeConnector(int maxFrameSize) {
        this(maxFrameSize, ClientTls.DEFAULT, 0);
    }

    /**
     * @param tls how to speak TLS to the {@code ssl://} nodes
     * @param heartbeatMillis silence after which a node is pinged, twice that and the connection is
     *        given up (0: never)
     */
    public NettyNodeConnector(int maxFrameSize, ClientTls tls, long heartbeatMillis) {
        this.maxFrameSize = maxFrameSize;
        this.tls = tls;
        this.heartbeatMillis = heartbeatMillis;
    }

    /**
     * The timeout covers the TCP connect and the handshake together, so a port where something
     * else listens and says nothing fails within it too. What fails closes the socket.
     */
    @Override
    public BrokerConnection connect(NodeAddress node, Login login, ConnectionListener listener, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        NettyBrokerConnection transport = NettyBrokerConnection.connect(
                node.host(),
                node.port(),
                maxFrameSize,
                timeoutMillis,
                node.tls() ? tls.context() : null,
                heartbeatMillis);
        if (listener != null) {
            transport.setListener(listener);
        }
        try {
            handshake(
                    transport,
                    transport.open(login.user(), login.password(), login.clientId()),
                    timeoutMillis,
                    deadline);
        } catch (BrokerError e) {
            transport.abort();
            throw e;
        }
        return transport;
    }

    private static void handshake(
            NettyBrokerConnection transport, CompletableFuture<Void> opened, long timeout, long deadline) {
        try {
            if (timeout == 0) {
                opened.get();
            } else {
                opened.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (TimeoutException e) {
            throw new BrokerError(
                    ErrorCode.INTERNAL,
                    PartitaErrorCodes.NOT_A_NODE,
                    transport.noNodeAt() + ": what listens there did not answer"
                            + " the handshake within connectTimeout (" + timeout + " ms)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerError(ErrorCode.INTERNAL, "interrupted while connecting to " + transport.address());
        } catch (ExecutionException e) {
            throw e.getCause() instanceof BrokerError b
                    ? b
                    : new BrokerError(
                            ErrorCode.INTERNAL, "connecting to " + transport.address() + " failed: " + e.getCause());
        }
    }
}
