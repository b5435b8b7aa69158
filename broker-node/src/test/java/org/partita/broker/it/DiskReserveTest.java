package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.api.PartitaProperties;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * Large message bodies leave the last of the disk to the store ({@code storage.diskReserveBytes}): a
 * body that would eat into the reserve is refused part way with an error naming the setting, its
 * parts already written are deleted, and the same session sends and receives at once afterwards.
 * The reserve is set just below the disk's free space, so the test needs no full disk.
 */
class DiskReserveTest {
    private static final long MIB = 1 << 20;

    @TempDir
    Path dataDir;

    @Test
    void aBodyThatWouldEatIntoTheReserveIsRefusedAndLeavesNothingBehind() throws Exception {
        NodeConfig config = NodeConfig.defaults().withPort(0).withDataDir(dataDir);
        // a first start lays out the store's files (the journal's segments take their room at once)
        PartitaNode.start(config).close();
        long free = Files.getFileStore(dataDir).getUsableSpace();
        NodeConfig reserved = config.withStorage(config.storage().withDiskReserve(free - 48 * MIB));
        try (PartitaNode node = PartitaNode.start(reserved);
                Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("reserve"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);

            BytesMessage tooLarge = s.createBytesMessage();
            tooLarge.setObjectProperty(PartitaProperties.INPUT_STREAM, new LargeMessagesTest.Generated(256 * MIB, 1));
            ResourceAllocationException refused =
                    assertThrows(ResourceAllocationException.class, () -> p.send(tooLarge));
            assertTrue(
                    refused.getMessage().contains("storage.diskReserveBytes"),
                    "the error names the setting: " + refused.getMessage());
            await("the refused body's parts deleted")
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> bodyFiles(dataDir.resolve("large")) == 0);

            byte[] body = new byte[4 * (int) MIB];
            java.util.Arrays.fill(body, (byte) 7);
            BytesMessage fits = s.createBytesMessage();
            fits.writeBytes(body);
            p.send(fits);
            BytesMessage got =
                    (BytesMessage) s.createConsumer(s.createQueue("reserve")).receive(30_000);
            assertNotNull(got, "a body within the room left is taken and delivered");
            assertArrayEquals(body, got.getBody(byte[].class));
        }
    }

    private static long bodyFiles(Path folder) throws java.io.IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.count();
        }
    }
}
