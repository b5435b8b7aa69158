package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.broker.store.StoreCounters;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * docs/storage.md, "Checkpoints": a checkpoint never stops appends. Producers fill a backlog (none
 * acknowledged, so each closed journal segment takes H2 a while: its 16 MiB of messages are all
 * inserted), and a JMS producer's persistent sends must be confirmed while a checkpoint is in
 * progress: begun before the send and not yet ended when it is confirmed. Had the writer waited for
 * the checkpoint, no send begun during one could be confirmed before it ended.
 */
@Tag("slow")
@Timeout(180)
class AppendsDuringCheckpointTest {
    private static final int FILLERS = 3;
    private static final int PAYLOAD = 8 * 1024;
    /** Per filler: 36,000 messages of 8 KiB in all, 18 segments, if the probe took that long. */
    private static final int MOST_PER_FILLER = 12_000;

    private static final int SENDS_CONFIRMED_DURING_CHECKPOINTS = 5;

    @TempDir
    Path dir;

    @Test
    void persistentSendsAreConfirmedWhileACheckpointMovesAClosedSegmentIntoH2() throws Exception {
        try (PartitaNode node =
                        PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(dir.resolve("data")));
                Connection probeConnection = new PartitaConnectionFactory(node.url()).createConnection()) {
            StoreCounters counters = node.store().counters().orElseThrow();
            Session probeSession = probeConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer probe = probeSession.createProducer(probeSession.createQueue("backlog"));
            probe.setDeliveryMode(DeliveryMode.PERSISTENT);
            AtomicBoolean stop = new AtomicBoolean();
            List<CompletableFuture<Integer>> fillers = new ArrayList<>();
            for (int i = 0; i < FILLERS; i++) {
                fillers.add(CompletableFuture.supplyAsync(() -> fill(node, stop)));
            }
            int probes = 0;
            int confirmedDuring = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            try {
                // bounded by the fillers' count (they end at their bound) and by time; no sleeps: each send waits for
                // its confirmation
                while (confirmedDuring < SENDS_CONFIRMED_DURING_CHECKPOINTS
                        && System.nanoTime() < deadline
                        && !fillers.stream().allMatch(CompletableFuture::isDone)) {
                    long begun = counters.checkpointsBegun();
                    long ended = counters.checkpointsEnded();
                    BytesMessage m = probeSession.createBytesMessage();
                    m.writeBytes(new byte[64]);
                    probe.send(m); // returns once the node confirmed it stored
                    probes++;
                    if (begun > ended && counters.checkpointsEnded() == ended) {
                        confirmedDuring++; // the checkpoint running before the send was still running after it
                    }
                }
            } finally {
                stop.set(true);
            }
            int filled = 0;
            for (CompletableFuture<Integer> f : fillers) {
                filled += f.get(60, TimeUnit.SECONDS);
            }
            System.out.printf(
                    "%d fill sends, %d probe sends, %d confirmed during a checkpoint; %d checkpoints begun,"
                            + " writer waited %.0f ms for them, zero-filled %d bytes itself%n",
                    filled,
                    probes,
                    confirmedDuring,
                    counters.checkpointsBegun(),
                    counters.checkpointWaitNanos() / 1e6,
                    counters.writerAllocatedBytes());
            assertTrue(counters.checkpointsBegun() >= 1, "a closed segment went into H2 while the producers sent");
            assertTrue(
                    confirmedDuring >= SENDS_CONFIRMED_DURING_CHECKPOINTS,
                    confirmedDuring + " of " + probes
                            + " persistent sends confirmed while a checkpoint was in progress");
        }
    }

    /** One producer of persistent 8 KiB messages on a connection of its own, until stopped or at its bound. */
    private static int fill(PartitaNode node, AtomicBoolean stop) {
        try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("backlog"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            byte[] payload = new byte[PAYLOAD];
            int sent = 0;
            while (!stop.get() && sent < MOST_PER_FILLER) {
                BytesMessage m = s.createBytesMessage();
                m.writeBytes(payload);
                p.send(m);
                sent++;
            }
            return sent;
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
