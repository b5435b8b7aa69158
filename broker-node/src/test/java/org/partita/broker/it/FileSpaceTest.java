package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * docs/reliability.md, "Storage faults" point 9: a node's H2 file gives the space of a drained
 * backlog back while the node runs, fill-and-drain cycle after cycle, and stays small after a
 * clean stop.
 */
@Tag("slow")
@Timeout(300)
class FileSpaceTest {
    private static final int CYCLES = 4;
    private static final int MESSAGES = 500;
    private static final int PAYLOAD = 100 * 1024; // 50 MB a cycle
    private static final long SMALL = 16L << 20;

    @TempDir
    Path dir;

    @Test
    void theDatabaseFileOfADrainedNodeShrinksWhileItRunsAndAfterAStop() throws Exception {
        Path data = dir.resolve("data");
        Path database = data.resolve("partita.mv.db");
        byte[] payload = new byte[PAYLOAD];
        new Random(9).nextBytes(payload);
        long peak = 0;
        try (PartitaNode node =
                        PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(data));
                Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("backlog"));
            MessageConsumer consumer = s.createConsumer(s.createQueue("backlog"));
            c.start();
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                for (int i = 0; i < MESSAGES; i++) {
                    BytesMessage m = s.createBytesMessage();
                    m.writeBytes(payload);
                    p.send(m);
                }
                node.store().figures(); // the backlog is in H2 now
                peak = Math.max(peak, Files.size(database));
                for (int i = 0; i < MESSAGES; i++) {
                    assertNotNull(consumer.receive(10_000), "message " + i + " of cycle " + cycle);
                }
                int n = cycle;
                long[] seen = new long[1];
                // the writer, idle, checkpoints the acknowledgements into H2 and compacts it
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> {
                            seen[0] = Files.size(database);
                            return seen[0] < SMALL;
                        });
                System.out.printf(
                        "cycle %d: database %d MiB with the backlog, %d KiB drained; files %d KiB%n",
                        n,
                        peak >> 20,
                        seen[0] >> 10,
                        node.store().counters().orElseThrow().fileBytes() >> 10);
            }
            assertTrue(node.store().counters().orElseThrow().compactions() >= CYCLES);
        }
        assertTrue(peak > 40L << 20, "the backlog reached H2: " + peak);
        assertTrue(
                Files.size(database) < SMALL, "and the file stays small after a clean stop: " + Files.size(database));
    }
}
