package org.partita.jms.transport;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.protocol.ErrorCode;

/**
 * Connects over TCP (or TLS for {@code ssl://} nodes) with Netty and completes the handshake, both within one timeout;
 * the node's first answer is waited for within a shorter one.
 */
public final class NettyNodeConnector implements NodeConnector {
    private final int maxFrameSize;
    private final ClientTls tls;
    private final long heartbeatMillis;
    private final long greetingMillis;

    /** No heartbeat, no bound on the node's first answer but the connect timeout. */
    public NettyNodeConnector(int maxFrameSize) {
        this(maxFrameSize, ClientTls.DEFAULT, 0, 0);
    }

    /**
     * @param tls how to speak TLS to the {@code ssl://} nodes
     * @param heartbeatMillis silence after which a node is pinged, twice that and the connection is
     *        given up (0: never)
     * @param greetingMillis how long after the TCP connect the node's first answer may take (its
     *        GREETING, docs/protocol.md), within the connect timeout; 0: the connect timeout alone
     */
    public NettyNodeConnector(int maxFrameSize, ClientTls tls, long heartbeatMillis, long greetingMillis) {
        this.maxFrameSize = maxFrameSize;
        this.tls = tls;
        this.heartbeatMillis = heartbeatMillis;
        this.greetingMillis = greetingMillis;
    }

    /**
     * The timeout covers the TCP connect and the handshake together. A node answers a HELLO at once,
     * before it checks the login; a port where something else listens and says nothing is given up
     * when no answer came within the greeting bound, rather than the whole timeout. What fails closes
     * the socket.
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
            CompletableFuture<Void> opened = transport.open(login.user(), login.password(), login.clientId());
            awaitFirstAnswer(transport, opened, timeoutMillis, deadline);
            handshake(transport, opened, timeoutMillis, deadline);
        } catch (BrokerError e) {
            transport.abort();
            throw e;
        }
        return transport;
    }

    /**
     * Waits for the node's first frame within the greeting bound (never past the connect timeout's
     * deadline, which {@link #handshake} then reports itself).
     */
    private void awaitFirstAnswer(
            NettyBrokerConnection transport, CompletableFuture<Void> opened, long timeout, long deadline) {
        if (greetingMillis == 0) {
            return;
        }
        long left = timeout == 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
        long bound = TimeUnit.MILLISECONDS.toNanos(greetingMillis);
        try {
            CompletableFuture.anyOf(transport.firstAnswer(), opened).get(Math.min(bound, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            if (left <= bound) {
                return; // the connect timeout runs out first: handshake() names it
            }
            throw new BrokerError(
                    ErrorCode.INTERNAL,
                    PartitaErrorCodes.NOT_A_NODE,
                    transport.noNodeAt() + ": nothing answered the handshake within greetingTimeout (" + greetingMillis
                            + " ms); what listens there is no Partita node, or a node that is paused");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerError(ErrorCode.INTERNAL, "interrupted while connecting to " + transport.address());
        } catch (ExecutionException e) {
            // the handshake failed: handshake() reports how
        }
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
