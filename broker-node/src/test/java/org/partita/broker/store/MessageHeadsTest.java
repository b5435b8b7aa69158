package org.partita.broker.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.partita.broker.store.h2.H2MessageStore;
import org.partita.broker.store.h2.H2Schema;

/**
 * Heads stored beside payloads: a start reads the head of each message instead of its payload,
 * heads go with their payloads, and a folder written before heads existed still loads.
 */
class MessageHeadsTest {
    /** A stand-in for the node's summary: the payload's first byte, repeated. */
    private static final MessageHeads FIRST_BYTE = p -> new byte[] {p[0], p[0]};

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(H2MessageStore.Layout.class)
    void entriesComeBackWithTheirHeadsInsteadOfTheirPayloads(H2MessageStore.Layout layout) throws Exception {
        Path dir = tmp.resolve("node");
        try (H2MessageStore store = H2MessageStore.open(dir, true, layout, 1L << 20, FIRST_BYTE)) {
            store.write(send("q", 1, "alpha")).get(30, TimeUnit.SECONDS);
            store.write(send("q", 2, "beta")).get(30, TimeUnit.SECONDS);
            store.write(StoreBatch.relaxed()
                            .add(new StoreOp.DeleteEntry("q", 1))
                            .add(new StoreOp.DeleteMessage(1)))
                    .get(30, TimeUnit.SECONDS);
        }
        try (H2MessageStore store = H2MessageStore.open(dir, true, layout, 1L << 20, FIRST_BYTE)) {
            List<StoredEntry> entries = entries(store);
            assertEquals(1, entries.size());
            assertNull(entries.get(0).payload(), "the payload was not read");
            assertArrayEquals(new byte[] {'b', 'b'}, entries.get(0).head());
            assertArrayEquals(bytes("beta"), store.readPayload(2), "and is there when needed");
        }
        assertEquals(1, count(dir, "MESSAGE_HEADS"), "message 1's head went with its payload");
    }

    @Test
    void aFolderWrittenBeforeHeadsIsUpgradedAndLoadsItsPayloads() throws Exception {
        Path dir = tmp.resolve("node");
        try (H2MessageStore store = H2MessageStore.open(dir, true)) {
            store.write(send("q", 7, "old")).get(30, TimeUnit.SECONDS);
        }
        try (Connection c = jdbc(dir);
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE MESSAGE_HEADS");
            s.execute("UPDATE PARTITA_SCHEMA SET VERSION = 1");
        }
        try (H2MessageStore store = H2MessageStore.open(dir, true, FIRST_BYTE)) {
            List<StoredEntry> entries = entries(store);
            assertEquals(1, entries.size());
            assertNull(entries.get(0).head());
            assertArrayEquals(bytes("old"), entries.get(0).payload());
            store.write(send("q", 8, "new")).get(30, TimeUnit.SECONDS);
        }
        try (Connection c = jdbc(dir);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT VERSION FROM PARTITA_SCHEMA")) {
            rs.next();
            assertEquals(H2Schema.VERSION, rs.getInt(1));
        }
        assertEquals(1, count(dir, "MESSAGE_HEADS"), "new messages get heads");
    }

    private static StoreBatch send(String queue, long id, String payload) {
        return new StoreBatch()
                .add(new StoreOp.InsertMessage(id, bytes(payload)))
                .add(new StoreOp.InsertEntry(queue, id));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<StoredEntry> entries(H2MessageStore store) {
        List<StoredEntry> out = new ArrayList<>();
        store.loadEntries(out::add);
        return out;
    }

    private static Connection jdbc(Path dir) throws Exception {
        return DriverManager.getConnection(
                "jdbc:h2:file:" + dir.toAbsolutePath().resolve("partita"), "partita", "");
    }

    private static long count(Path dir, String table) throws Exception {
        try (Connection c = jdbc(dir);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
