package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.config.StorageSettings;
import org.partita.broker.embed.PartitaNode;
import org.partita.broker.store.FaultyDisk;
import org.partita.broker.store.StoreCounters;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * docs/reliability.md, "Storage faults" points 7 and 8: under a disk that fails (through the
 * {@link FaultyDisk} seam, under the real store and a real node on a loopback port), persistent
 * work fails with a ResourceAllocationException naming the cause, non-persistent work goes on, the
 * node reopens its store by itself once the cause is gone, and no send answered with an error is
 * ever delivered, before or after a restart.
 */
@Tag("slow")
@Timeout(120)
class StoreFaultTest {
    private static final int EACH = 5;

    @TempDir
    Path dir;

    private NodeConfig config() {
        return NodeConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withStorage(StorageSettings.defaults().withRetry(50, 400));
    }

    @Test
    void failingWritesRefusePersistentSendsClearlyAndTheNodeResumesByItself() throws Exception {
        FaultyDisk disk = new FaultyDisk(dir.resolve("data"));
        try (Running r = new Running(disk)) {
            MessageProducer live = r.s.createProducer(r.s.createQueue("live"));
            live.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            MessageConsumer liveConsumer = r.s.createConsumer(r.s.createQueue("live"));
            r.c.start();

            disk.fail(FaultyDisk.Fault.WRITES);
            for (int i = 0; i < EACH; i++) {
                TextMessage m = r.s.createTextMessage("failed-" + i);
                ResourceAllocationException e = assertThrows(ResourceAllocationException.class, () -> r.orders.send(m));
                assertTrue(e.getMessage().contains("write failed"), e.getMessage());
            }
            StoreCounters counters = r.node.store().counters().orElseThrow();
            assertNotNull(counters.fault(), "the store says why it cannot write");
            assertTrue(
                    r.node.metrics().scrape().lines().anyMatch(l -> l.startsWith("partita_store_writable 0")),
                    "the metrics show the store is not writable");
            // non-persistent work goes on
            live.send(r.s.createTextMessage("still here"));
            assertEquals("still here", ((TextMessage) liveConsumer.receive(5_000)).getText());

            disk.heal();
            awaitSendWorks(r.s, r.orders, "after-0");
            assertNull(counters.fault());
            assertTrue(r.node.metrics().scrape().lines().anyMatch(l -> l.startsWith("partita_store_writable 1")));
            assertTrue(counters.recoveries() >= 1);
        }
        assertStoredAfterRestart(Set.of("before-0", "before-1", "before-2", "before-3", "before-4", "after-0"));
    }

    @Test
    void aSendWhoseSyncFailedIsNeverDeliveredNotEvenAfterARestart() throws Exception {
        FaultyDisk disk = new FaultyDisk(dir.resolve("data"));
        try (Running r = new Running(disk)) {
            disk.fail(FaultyDisk.Fault.SYNC, FaultyDisk::journal);
            for (int i = 0; i < EACH; i++) {
                TextMessage m = r.s.createTextMessage("failed-" + i);
                ResourceAllocationException e = assertThrows(ResourceAllocationException.class, () -> r.orders.send(m));
                assertTrue(e.getMessage().contains("sync failed"), e.getMessage());
            }
            disk.heal();
            awaitSendWorks(r.s, r.orders, "after-0");
            // the failed sends are not in the queue now either
            assertEquals(
                    List.of("before-0", "before-1", "before-2", "before-3", "before-4", "after-0"), drain(r.c, r.s));
            sendAll(r.s, r.orders, "kept");
        }
        assertStoredAfterRestart(Set.of("kept-0", "kept-1", "kept-2", "kept-3", "kept-4"));
    }

    @Test
    void aDatabaseThatFailsWritesRefusesNewQueuesAndKeepsNoRefusedSend() throws Exception {
        FaultyDisk disk = new FaultyDisk(dir.resolve("data"));
        try (Running r = new Running(disk)) {
            disk.fail(FaultyDisk.Fault.WRITES, FaultyDisk::database);
            // a new queue is written to H2 after a checkpoint: the checkpoint fails, the send too
            MessageProducer fresh = r.s.createProducer(r.s.createQueue("fresh"));
            ResourceAllocationException e = assertThrows(
                    ResourceAllocationException.class, () -> fresh.send(r.s.createTextMessage("failed-new-queue")));
            assertTrue(e.getMessage().contains("write failed"), e.getMessage());
            assertThrows(ResourceAllocationException.class, () -> r.orders.send(r.s.createTextMessage("failed-0")));
            disk.heal();
            awaitSendWorks(r.s, r.orders, "after-0");
        }
        // H2 reported its write errors to the node's log, not to a trace file of its own (which it would
        // create with the umask's permissions, beside the data)
        assertFalse(java.nio.file.Files.exists(dir.resolve("data").resolve("partita.trace.db")), "no H2 trace file");
        assertStoredAfterRestart(Set.of("before-0", "before-1", "before-2", "before-3", "before-4", "after-0"));
    }

    @Test
    void aFullDiskRefusesSendsNamingTheCauseAndKeepsNoneOfThem() throws Exception {
        FaultyDisk disk = new FaultyDisk(dir.resolve("data"));
        Set<String> confirmed = new TreeSet<>(Set.of("before-0", "before-1", "before-2", "before-3", "before-4"));
        try (Running r = new Running(disk)) {
            disk.fail(FaultyDisk.Fault.FULL);
            byte[] mebibyte = new byte[1 << 20];
            ResourceAllocationException refused = null;
            // the journal is allocated 4 MiB ahead: within 12 MiB of sends it must grow, and cannot
            for (int i = 0; i < 12 && refused == null; i++) {
                jakarta.jms.BytesMessage m = r.s.createBytesMessage();
                m.writeBytes(mebibyte);
                m.setStringProperty("name", "big-" + i);
                try {
                    r.orders.send(m);
                    confirmed.add("big-" + i);
                } catch (ResourceAllocationException e) {
                    refused = e;
                }
            }
            assertNotNull(refused, "a full disk refused a send");
            assertTrue(refused.getMessage().contains("No space left on device"), refused.getMessage());
            // the error says how much room resuming needs, and where
            assertTrue(
                    refused.getMessage().matches(".*resuming needs about [0-9.]+ MiB free in .*data.*"),
                    refused.getMessage());
            disk.heal();
            awaitSendWorks(r.s, r.orders, "after-0");
            confirmed.add("after-0");
        }
        assertStoredAfterRestart(confirmed);
    }

    @Test
    void aTransactionCommittedDuringAFaultIsRolledBackAndWhatItConsumedComesBack() throws Exception {
        FaultyDisk disk = new FaultyDisk(dir.resolve("data"));
        try (Running r = new Running(disk)) {
            Session tx = r.c.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = tx.createConsumer(tx.createQueue("orders"));
            MessageProducer out = tx.createProducer(tx.createQueue("orders"));
            r.c.start();
            assertEquals("before-0", ((TextMessage) consumer.receive(5_000)).getText());
            out.send(tx.createTextMessage("failed-in-tx"));
            disk.fail(FaultyDisk.Fault.WRITES);
            jakarta.jms.TransactionRolledBackException e =
                    assertThrows(jakarta.jms.TransactionRolledBackException.class, tx::commit);
            assertTrue(e.getMessage().contains("write failed"), e.getMessage());
            disk.heal();
            awaitSendWorks(r.s, r.orders, "after-0");
            tx.close();
        }
        assertStoredAfterRestart(Set.of("before-0", "before-1", "before-2", "before-3", "before-4", "after-0"));
    }

    /** A node on the faulty disk, a connection to it, and "before-0..4" confirmed on queue orders. */
    private final class Running implements AutoCloseable {
        final PartitaNode node;
        final Connection c;
        final Session s;
        final MessageProducer orders;

        Running(FaultyDisk disk) throws JMSException {
            node = PartitaNode.start(config(), disk);
            c = new PartitaConnectionFactory(node.url()).createConnection();
            s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            orders = s.createProducer(s.createQueue("orders"));
            sendAll(s, orders, "before");
        }

        @Override
        public void close() throws JMSException {
            try {
                c.close();
            } finally {
                node.close();
            }
        }
    }

    private static void sendAll(Session s, MessageProducer p, String prefix) throws JMSException {
        for (int i = 0; i < EACH; i++) {
            p.send(s.createTextMessage(prefix + "-" + i));
        }
    }

    /** The node reopens its store on its own: a send succeeds again within a bounded time. */
    private static void awaitSendWorks(Session s, MessageProducer p, String text) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    try {
                        p.send(s.createTextMessage(text));
                        return true;
                    } catch (ResourceAllocationException stillFaulted) {
                        return false;
                    }
                });
    }

    private static List<String> drain(Connection c, Session s) throws JMSException {
        c.start();
        List<String> got = new ArrayList<>();
        try (MessageConsumer consumer = s.createConsumer(s.createQueue("orders"))) {
            for (Message m; got.size() < 1_000 && (m = consumer.receive(1_000)) != null; ) {
                got.add(m instanceof TextMessage t ? t.getText() : m.getStringProperty("name"));
            }
        }
        return got;
    }

    /** A clean restart on the plain disk holds exactly what was confirmed and not consumed. */
    private void assertStoredAfterRestart(Set<String> expected) throws Exception {
        try (PartitaNode again = PartitaNode.start(config());
                Connection c = new PartitaConnectionFactory(again.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertEquals(new TreeSet<>(expected), new TreeSet<>(drain(c, s)));
        }
    }
}
