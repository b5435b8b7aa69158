package org.partita.broker.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.BrokerFixture;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.jms.transport.BrokerError;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.MessageCodec;

/**
 * The store-and-forward of one clustered queue to one other node, without that node: the forward
 * log is a real queue of a real broker core (no network), the other node a {@link Forwarder.Link}
 * whose forwards the test answers. What a cluster relies on: a message leaves the log only once the
 * other node stored it, a key has one message on its way at a time so its order holds, a forward
 * whose outcome is unknown is sent again flagged before the key's next, a refusal as full is noted
 * for the routing of overflow, and nothing is forwarded while the link is down.
 */
class ForwarderTest {
    private static final String PEER = "n2";
    private static final String QUEUE = "orders";

    @TempDir
    Path tmp;

    private BrokerFixture node;
    private BrokerQueue log;
    private final TestLink link = new TestLink();
    private final RemoteRoom room = new RemoteRoom();
    /** What the forwarder scheduled on its timer: its restarts after a pause. */
    private final List<Runnable> restarts = new CopyOnWriteArrayList<>();

    private Forwarder forwarder;

    @BeforeEach
    void open() {
        node = new BrokerFixture(tmp.resolve("node"));
        log = node.broker().createQueue(Forwarder.logName(PEER, QUEUE), QueueOptions.TERMINAL);
        forwarder = new Forwarder(log, QUEUE, link, timer(), room);
    }

    @AfterEach
    void close() {
        forwarder.stop();
        node.close();
    }

    /** The log is a durable queue: a restarted node finds it again by this name. */
    @Test
    void theLogIsNamedForTheNodeAndTheQueue() {
        assertEquals("$forward:n2:orders", Forwarder.logName(PEER, QUEUE));
        assertEquals(PEER, forwarder.peer());
    }

    @Test
    void nothingIsForwardedWhileTheLinkIsDownAndTheLogKeepsItsMessages() {
        link.up = false;
        send("m1", null);
        forwarder.start();
        settle();
        assertTrue(link.forwards.isEmpty());
        assertEquals(1, log.depth());

        link.up = true;
        forwarder.start();
        Forward f = link.next();
        assertEquals("m1", f.text());
        assertEquals(QUEUE, f.queue());
        assertEquals(0, f.deliveryCount(), "a first forward arrives unflagged");
    }

    @Test
    void aMessageLeavesTheLogOnlyOnceTheOtherNodeStoredIt() {
        send("m1", null);
        forwarder.start();
        Forward f = link.next();
        settle();
        assertEquals(1, log.depth(), "still held while on its way");

        f.done().complete(null);
        await().atMost(Duration.ofSeconds(10)).until(() -> log.depth() == 0);
    }

    @Test
    void aKeyHasOneMessageOnItsWayAtATime() {
        send("k1-a", "k1");
        send("k1-b", "k1");
        send("k2-a", "k2");
        forwarder.start();
        Forward first = link.next();
        Forward second = link.next();
        assertEquals(Set.of("k1-a", "k2-a"), Set.of(first.text(), second.text()));
        settle();
        assertTrue(link.forwards.isEmpty(), "k1-b waits for k1-a");

        (first.text().equals("k1-a") ? first : second).done().complete(null);
        assertEquals("k1-b", link.next().text());
    }

    @Test
    void aForwardWhoseOutcomeIsUnknownIsSentAgainFlaggedBeforeTheKeysNext() {
        send("k1-a", "k1");
        send("k1-b", "k1");
        forwarder.start();
        Forward lost = link.next();
        assertEquals("k1-a", lost.text());
        lost.done().completeExceptionally(new IOException("connection reset"));

        await().atMost(Duration.ofSeconds(10)).until(() -> restarts.size() == 1);
        settle();
        assertTrue(link.forwards.isEmpty(), "forwarding pauses after a failure");
        assertEquals(2, log.depth(), "the message is back in the log");

        restarts.get(0).run();
        Forward again = link.next();
        assertEquals("k1-a", again.text(), "sent again before the key's next");
        assertEquals(1, again.deliveryCount(), "flagged: the other node may have stored it already");
        again.done().complete(null);
        Forward next = link.next();
        assertEquals("k1-b", next.text());
        assertEquals(0, next.deliveryCount());
    }

    @Test
    void aNodeThatRefusesAsFullIsNotedSoAndTheMessageIsSentAgainUnflagged() {
        send("m1", null);
        forwarder.start();
        link.next().done().completeExceptionally(new BrokerError(ErrorCode.RESOURCE_EXHAUSTED, "queue is full"));
        await().atMost(Duration.ofSeconds(10)).until(() -> restarts.size() == 1);
        assertFalse(room.hasRoom(PEER, QUEUE), "overflow is not routed to a node known full");

        restarts.get(0).run();
        Forward again = link.next();
        assertEquals("m1", again.text());
        assertEquals(0, again.deliveryCount(), "refused before it was stored: not a redelivery");
        again.done().complete(null);
        await().atMost(Duration.ofSeconds(10)).until(() -> log.depth() == 0);
        assertTrue(room.hasRoom(PEER, QUEUE), "it stored one: it has room again");
    }

    @Test
    void aLinkThatWentDownBeforeTheForwardPausesForwardingWithoutCountingADelivery() {
        send("m1", null);
        link.connected = false; // up when the forwarder started, lost before the message went
        forwarder.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> restarts.size() == 1);
        link.connected = true;
        restarts.get(0).run();
        Forward f = link.next();
        assertEquals("m1", f.text());
        assertEquals(0, f.deliveryCount(), "it never left: not flagged");
    }

    @Test
    void aForwardThatFailsAfterTheForwarderStoppedGoesBackWithoutARestart() {
        send("m1", null);
        forwarder.start();
        Forward f = link.next();
        forwarder.stop();
        f.done().completeExceptionally(new IOException("connection reset"));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> BrokerFixture.browse(log).equals(List.of("m1")));
        assertTrue(restarts.isEmpty(), "a stopped forwarder is started by its link coming up, not by a timer");
    }

    @Test
    void aForwardThatSucceedsAfterTheForwarderStoppedStillLeavesTheLog() {
        send("m1", null);
        forwarder.start();
        Forward f = link.next();
        forwarder.stop();
        f.done().complete(null);
        await().atMost(Duration.ofSeconds(10)).until(() -> log.depth() == 0);
    }

    // ---- helpers -------------------------------------------------------------------------------

    private void send(String text, String key) {
        node.send(log, text, key == null ? Map.of() : Map.of("JMSXGroupID", key));
    }

    /** Waits until the log's queued work (deliveries to the forwarder, acks, releases) has run. */
    private void settle() {
        BrokerFixture.await(log.queuedWorkDone());
    }

    /** A timer that keeps what is scheduled on it for the test to run. */
    private ScheduledExecutorService timer() {
        return (ScheduledExecutorService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {ScheduledExecutorService.class}, (p, method, args) -> {
                    if (method.getName().equals("schedule") && args[0] instanceof Runnable r) {
                        restarts.add(r);
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    record Forward(String queue, int deliveryCount, String text, CompletableFuture<Void> done) {}

    /** The other node: each forward waits for the test's answer. */
    private static final class TestLink implements Forwarder.Link {
        final BlockingQueue<Forward> forwards = new LinkedBlockingQueue<>();
        volatile boolean up = true;
        /** False: up as far as the forwarder's start saw, but gone by the time it forwards. */
        volatile boolean connected = true;

        @Override
        public String peer() {
            return PEER;
        }

        @Override
        public boolean isUp() {
            return up;
        }

        @Override
        public CompletableFuture<Void> forward(String queue, int deliveryCount, byte[] message) {
            if (!up || !connected) {
                return null;
            }
            String text = new String(MessageCodec.decode(message).body(), java.nio.charset.StandardCharsets.UTF_8);
            Forward f = new Forward(queue, deliveryCount, text, new CompletableFuture<>());
            forwards.add(f);
            return f.done();
        }

        Forward next() {
            try {
                Forward f = forwards.poll(10, TimeUnit.SECONDS);
                assertNotNull(f, "nothing was forwarded in 10 s");
                return f;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
