package org.partita.broker.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.DestinationAddress;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.broker.core.queue.QueueOptionConflictException;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.broker.core.queue.UnknownDestinationException;

/**
 * The broker core of one node over a real store: queues made on first use and from their names'
 * options, fan-out to AppId queues that share one stored payload, changes and deletion of queues,
 * all as a restart reads them back.
 */
class BrokerTest {
    private static final QueueOptions FANOUT =
            QueueOptions.DEFAULTS.with("mode", "fanout").with("appIds", "billing,audit");

    @TempDir
    Path tmp;

    private BrokerFixture node;

    private BrokerFixture start(BrokerSettings settings) {
        node = new BrokerFixture(tmp.resolve("node"), ClusterHooks.STANDALONE, settings);
        return node;
    }

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aNameCreatesItsQueueWithItsOptionsOnceAndForAll() {
        Broker b = start(BrokerSettings.DEFAULTS).broker();
        BrokerQueue jobs = b.queue("jobs?partitions=3&maxDeliveryAttempts=4");
        assertEquals(3, jobs.options().partitions());
        assertSame(jobs, b.queue("jobs"), "the plain name finds it");
        assertSame(jobs, b.queue("jobs?partitions=3"), "options that agree find it too");
        assertThrows(
                QueueOptionConflictException.class,
                () -> b.queue("jobs?partitions=5"),
                "a name never silently changes a queue");

        node.restart();
        BrokerQueue back = node.broker().existingQueue("jobs");
        assertEquals(3, back.options().partitions(), "the options were stored with the queue");
        assertEquals(4, back.options().maxDeliveryAttempts());
    }

    @Test
    void aNodeThatDoesNotCreateQueuesOnFirstUseRefusesUnknownNames() {
        Broker b = start(new BrokerSettings(false, QueueOptions.DEFAULTS, 1L << 20))
                .broker();
        assertThrows(UnknownDestinationException.class, () -> b.queue("jobs"));
        b.createQueue("jobs", QueueOptions.DEFAULTS);
        assertEquals("jobs", b.queue("jobs").name(), "a declared queue is found");
        assertThrows(
                IllegalArgumentException.class,
                () -> b.createQueue("a#b", QueueOptions.DEFAULTS),
                "'#' is kept for AppId queues");
    }

    @Test
    void aFanOutQueueGivesEachAppIdItsOwnCopy() {
        Broker b = start(BrokerSettings.DEFAULTS).broker();
        BrokerQueue events = b.createQueue("events", FANOUT);
        node.sendRouted(events, "e1");
        BrokerQueue billing = b.consumerQueue(DestinationAddress.parse("events?appId=billing"));
        BrokerQueue audit = b.consumerQueue(DestinationAddress.parse("events?appId=audit"));
        assertEquals(List.of("e1"), BrokerFixture.browse(billing));
        assertEquals(List.of("e1"), BrokerFixture.browse(audit));
        assertThrows(
                IllegalArgumentException.class,
                () -> b.consumerQueue(DestinationAddress.parse("events")),
                "a consumer of a fan-out queue names its AppId");
        assertThrows(
                IllegalArgumentException.class, () -> b.consumerQueue(DestinationAddress.parse("events?appId=sales")));

        BrokerFixture.Receiver r = node.attach(billing, "billing", 1);
        r.ack(r.next());
        node.restart(billing, audit);
        assertEquals(List.of(), BrokerFixture.browse(node.broker().existingQueue("events#billing")));
        assertEquals(
                List.of("e1"),
                BrokerFixture.browse(node.broker().existingQueue("events#audit")),
                "billing's acknowledgement leaves audit's copy, stored once for both, in place");
    }

    @Test
    void aLiveQueueKeepsItsModeAndLosesAnAppIdsQueueWithTheAppId() {
        Broker b = start(BrokerSettings.DEFAULTS).broker();
        b.createQueue("events", FANOUT);
        assertThrows(IllegalArgumentException.class, () -> b.updateQueue("events", "mode=priority"));
        assertThrows(IllegalArgumentException.class, () -> b.updateQueue("events", "lastValue=queue"));
        b.updateQueue("events", "appIds=billing&maxDeliveryAttempts=3");
        assertNull(b.existingQueue("events#audit"), "audit's queue went with its AppId");
        assertEquals(
                3,
                b.existingQueue("events#billing").options().maxDeliveryAttempts(),
                "AppIds share the parent's options");

        node.restart();
        assertEquals(
                List.of("billing"),
                node.broker().existingQueue("events").options().appIds());
        assertNull(node.broker().existingQueue("events#audit"));
    }

    @Test
    void aDeletedQueueIsGoneWithItsMessagesAlsoAfterARestart() {
        Broker b = start(BrokerSettings.DEFAULTS).broker();
        BrokerQueue jobs = b.queue("jobs");
        node.send(jobs, "j1", java.util.Map.of());
        b.deleteQueue("jobs");
        assertNull(b.existingQueue("jobs"));
        node.restart(jobs);
        assertNull(node.broker().existingQueue("jobs"));
        assertEquals(
                List.of(), BrokerFixture.browse(node.broker().queue("jobs")), "a new queue of that name starts empty");
    }

    /**
     * A stopping node waits for its queues' work before its store closes (PartitaNode.close): a
     * message its closed connections handed back must have its delivery count written. The wait
     * must cover work queued behind a task that is still running, not only work already started.
     */
    @Test
    void awaitingQueuedWorkWaitsForTheWorkQueuedBeforeTheCall() throws Exception {
        Broker b = start(BrokerSettings.DEFAULTS).broker();
        BrokerQueue jobs = b.queue("jobs");
        node.send(jobs, "a", Map.of());
        node.send(jobs, "b", Map.of());
        BrokerFixture.Receiver first = node.attach(jobs, "first", 1);
        QueueEntry a = first.next();
        assertEquals(1, a.deliveryCount());
        CountDownLatch delivering = new CountDownLatch(1);
        CountDownLatch unblock = new CountDownLatch(1);
        ConsumerRef slow = new ConsumerRef(
                "slow",
                (c, e, p) -> {
                    delivering.countDown();
                    try {
                        unblock.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                },
                org.partita.protocol.selector.Selector.matchAll(),
                1,
                0);
        try {
            jobs.attach(slow); // its delivery of b holds the queue's executor
            assertTrue(delivering.await(10, TimeUnit.SECONDS), "b was not delivered to the slow consumer");
            jobs.release(a, first.ref, false); // queued behind that delivery: handed back unseen

            CompletableFuture<Void> waited = CompletableFuture.runAsync(() -> b.awaitQueuedWork(10_000));

            assertThrows(
                    TimeoutException.class,
                    () -> waited.get(300, TimeUnit.MILLISECONDS),
                    "returned while the queue still had work queued");
            assertEquals(1, a.deliveryCount(), "the hand-back cannot have run yet");
            unblock.countDown();
            waited.get(10, TimeUnit.SECONDS);
            assertEquals(0, a.deliveryCount(), "the hand-back queued before the call ran before it returned");
        } finally {
            unblock.countDown();
        }
    }
}
