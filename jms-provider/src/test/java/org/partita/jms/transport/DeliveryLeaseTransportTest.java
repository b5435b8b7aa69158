package org.partita.jms.transport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.protocol.Frame;
import org.partita.protocol.Protocol;

/**
 * The client's side of the delivery lease against a scripted node that announces a 300 ms lease:
 * after that long without a frame, {@link NettyBrokerConnection#heardLately} waits for a ping's
 * answer; the client pings a silent node every half lease on its own; a node silent for longer
 * than an election (twice the lease) while it owed an answer is marked as having been
 * unresponsive, one that answers promptly is not, however idle the connection.
 */
class DeliveryLeaseTransportTest {
    private static final int LEASE_MILLIS = 300;

    private ServerSocket server;
    private Socket node;
    private DataOutputStream toClient;
    private final BlockingQueue<Frame> fromClient = new LinkedBlockingQueue<>();
    private NettyBrokerConnection connection;

    @AfterEach
    void close() throws IOException {
        if (connection != null) {
            connection.close();
        }
        if (node != null) {
            node.close();
        }
        server.close();
    }

    /** Connects to a scripted node that answers HELLO with the lease, and reads what the client sends. */
    private void connect() throws Exception {
        server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
        CompletableFuture<Void> accepted = CompletableFuture.runAsync(() -> {
            try {
                node = server.accept();
                toClient = new DataOutputStream(node.getOutputStream());
                Thread reader = new Thread(this::readFrames, "scripted-node");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        connection = NettyBrokerConnection.connect("127.0.0.1", server.getLocalPort(), 1 << 20, 5_000);
        accepted.get(5, TimeUnit.SECONDS);
        CompletableFuture<Void> opened = connection.open(null, null, null);
        Frame hello = fromClient.poll(5, TimeUnit.SECONDS);
        answer(new Frame.HelloOk(hello.requestId(), Protocol.VERSION, "scripted", 1 << 20, LEASE_MILLIS));
        opened.get(5, TimeUnit.SECONDS);
    }

    private void readFrames() {
        try (DataInputStream in = new DataInputStream(node.getInputStream())) {
            while (true) {
                fromClient.add(SocketFrames.read(in));
            }
        } catch (IOException closed) {
            // the test is over
        }
    }

    private synchronized void answer(Frame frame) throws IOException {
        SocketFrames.write(toClient, frame);
    }

    /** When (System.nanoTime) the client last got a delivery from the node; 0 until then. */
    private java.util.concurrent.atomic.AtomicLong lastDeliveryArrival() {
        java.util.concurrent.atomic.AtomicLong arrived = new java.util.concurrent.atomic.AtomicLong();
        connection.setListener(new ConnectionListener() {
            @Override
            public void onDelivery(int consumerId, long deliveryId, int deliveryCount, int partition, byte[] message) {
                arrived.set(System.nanoTime());
            }

            @Override
            public void onFailure(BrokerError cause) {}
        });
        return arrived;
    }

    /** The next PING the client sent, waited for. */
    private Frame.Ping nextPing() throws InterruptedException {
        for (Frame f = fromClient.poll(5, TimeUnit.SECONDS); f != null; f = fromClient.poll(5, TimeUnit.SECONDS)) {
            if (f instanceof Frame.Ping p) {
                return p;
            }
        }
        throw new AssertionError("the client sent no PING");
    }

    @Test
    void pastTheLeaseTheClientAsksTheNodeBeforeItTrustsWhatItHolds() throws Exception {
        connect();
        assertTrue(connection.heardLately().isDone(), "heard from just now (HELLO_OK)");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !connection.heardLately().isDone());
        CompletableFuture<Void> heard = connection.heardLately();
        Frame.Ping ping = nextPing();
        assertFalse(heard.isDone(), "not before the node answered");
        answer(new Frame.Ok(ping.requestId()));
        heard.get(5, TimeUnit.SECONDS);
        assertEquals(Long.MIN_VALUE, connection.unresponsiveUntil(), "a prompt answer: the node was there all along");
    }

    @Test
    void anAnswerOwedInSilenceLongerThanAnElectionMarksTheNodeUnresponsive() throws Exception {
        connect();
        CompletableFuture<Void> pinged = connection.ping();
        Frame.Ping ping = nextPing();
        long before = System.nanoTime();
        // the node says nothing for three leases (longer than an election of two), then answers
        await().pollDelay(Duration.ofMillis(3 * LEASE_MILLIS))
                .atMost(Duration.ofSeconds(5))
                .until(() -> true);
        answer(new Frame.Ok(ping.requestId()));
        pinged.get(5, TimeUnit.SECONDS);
        assertTrue(connection.unresponsiveUntil() - before > 0, "what it delivered before may be void now");
    }

    /**
     * A node resumed from a pause answers the request it reads first and writes, after it, a delivery
     * its queue handed it before the pause (seen once in a 100-fault nemesis run as an unflagged
     * repeat): that delivery counts as from before the outage too.
     */
    @Test
    void aDeliveryTheNodeWritesJustAfterItsLateAnswerCountsAsFromBeforeTheOutage() throws Exception {
        connect();
        java.util.concurrent.atomic.AtomicLong arrived = lastDeliveryArrival();
        CompletableFuture<Void> pinged = connection.ping();
        Frame.Ping ping = nextPing();
        await().pollDelay(Duration.ofMillis(3 * LEASE_MILLIS))
                .atMost(Duration.ofSeconds(5))
                .until(() -> true);
        answer(new Frame.Ok(ping.requestId()));
        pinged.get(5, TimeUnit.SECONDS);
        answer(new Frame.Deliver(1, 1, 1, 0, new byte[] {1}));
        await().atMost(Duration.ofSeconds(5)).until(() -> arrived.get() != 0);
        assertTrue(
                connection.unresponsiveUntil() - arrived.get() > 0,
                "a delivery right after the late answer may have been decided before the pause");
    }

    /**
     * A consumer with nothing prefetched and nothing asked: its connection is idle, so only the
     * client's own pings tell a paused node from a quiet one. The node ignores them for three leases,
     * then writes a delivery (what its queue handed it before the pause): it counts as from before
     * the outage.
     */
    @Test
    void anIdleConnectionWhoseNodeStopsAnsweringItsPingsFlagsWhatComesAfter() throws Exception {
        connect();
        java.util.concurrent.atomic.AtomicLong arrived = lastDeliveryArrival();
        nextPing(); // the client's own, after half a lease of silence: left unanswered
        await().pollDelay(Duration.ofMillis(3 * LEASE_MILLIS))
                .atMost(Duration.ofSeconds(5))
                .until(() -> true);
        answer(new Frame.Deliver(1, 1, 1, 0, new byte[] {1}));
        await().atMost(Duration.ofSeconds(5)).until(() -> arrived.get() != 0);
        assertTrue(
                connection.unresponsiveUntil() - arrived.get() > 0,
                "the node was silent for longer than an election with a ping owed");
    }

    @Test
    void anIdleConnectionWhoseNodeAnswersItsPingsIsNeverMarked() throws Exception {
        connect();
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(8 * LEASE_MILLIS);
        int pings = 0;
        while (System.nanoTime() < until) {
            Frame f = fromClient.poll(LEASE_MILLIS, TimeUnit.MILLISECONDS);
            if (f instanceof Frame.Ping p) {
                answer(new Frame.Ok(p.requestId()));
                pings++;
            }
        }
        assertTrue(pings >= 4, "the client pinged its idle node every half lease of silence: " + pings);
        assertEquals(Long.MIN_VALUE, connection.unresponsiveUntil(), "a node that answers is not marked");
    }
}
