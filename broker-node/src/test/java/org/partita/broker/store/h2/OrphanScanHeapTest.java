package org.partita.broker.store.h2;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreOp;

/**
 * Issue 12 point 5: the scan for orphan payloads (a clean stop runs it) reads every stored payload
 * through H2. With H2's default 16 MiB page cache each page it read stayed cached long enough to be
 * promoted to the old generation, so beside a node whose backlog filled most of the heap the scan
 * ended in full collections (BacklogRestart, a million messages, 512 MiB: 8 full GCs, 510 MiB after
 * GC). Scaled down here: 200,000 payloads of 1,100 bytes, scanned in a 112 MiB G1 heap of which 80
 * MiB are held for the whole scan: with the default cache 153 full collections, with the scan's
 * 1 MiB cache none.
 */
@Tag("slow")
class OrphanScanHeapTest {
    private static final int MESSAGES = 200_000;
    private static final int ORPHANS = 10;

    @TempDir
    Path tmp;

    @Test
    void theOrphanScanRunsBesideALargeLiveHeapWithoutFullCollections() throws Exception {
        Path dir = tmp.resolve("node");
        fill(dir);
        Path log = tmp.resolve("probe.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(List.of(
                        java.toString(),
                        "-Xmx112m",
                        "-XX:+UseG1GC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Probe.class.getName(),
                        dir.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the probe did not end within 180 s: " + Files.readString(log));
        }
        String out = Files.readString(log);
        System.out.print(out);
        assertTrue(out.contains("payload rows " + (MESSAGES - ORPHANS)), "the scan removed the orphans: " + out);
        // The scan that filled the cache ended in 153 full collections here; on a machine busy with
        // other builds G1 now and then makes a few of its own (one, then two, seen in CI runs). The
        // bound stays an order of magnitude below the regression it guards.
        Matcher full = Pattern.compile("full collections (\\d+)").matcher(out);
        assertTrue(full.find() && Integer.parseInt(full.group(1)) <= 10, "no more than ten full collections: " + out);
        assertTrue(
                out.contains("cache 16384 KiB before, 16384 KiB after"), "the page cache's bound comes back: " + out);
    }

    /** Every payload with an entry but the last {@link #ORPHANS}, written by the applier as checkpoints do. */
    private static void fill(Path dir) throws Exception {
        H2MessageStore.open(dir, true).close();
        try (Connection c = jdbc(dir)) {
            c.setAutoCommit(false);
            H2BatchApplier h2 = new H2BatchApplier(c, () -> {});
            byte[] body = new byte[1100];
            List<StoreBatch> group = new ArrayList<>();
            for (long id = 1; id <= MESSAGES; id++) {
                Arrays.fill(body, (byte) id);
                StoreBatch b = new StoreBatch().add(new StoreOp.InsertMessage(id, body.clone()));
                if (id <= MESSAGES - ORPHANS) {
                    b.add(new StoreOp.InsertEntry("q", id));
                }
                group.add(b);
                if (group.size() == 1000 || id == MESSAGES) {
                    h2.apply(group);
                    group = new ArrayList<>();
                }
            }
        }
    }

    private static Connection jdbc(Path dir) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:h2:file:" + dir.toAbsolutePath().resolve("partita") + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0",
                "partita",
                "");
    }

    /** The child JVM: holds 80 MiB for the whole scan, as a node's backlog would, and counts full collections. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            try (Connection c = jdbc(Path.of(args[0]))) {
                c.setAutoCommit(false);
                H2BatchApplier h2 = new H2BatchApplier(c, () -> {});
                List<byte[]> held = new ArrayList<>();
                for (int i = 0; i < 80 * 16; i++) {
                    held.add(new byte[64 * 1024]);
                }
                System.gc();
                long cacheBefore = cacheKib(c);
                long fullBefore = fullCollections();
                h2.removeOrphanPayloads();
                long full = fullCollections() - fullBefore;
                System.out.println("payload rows " + count(c) + ", full collections " + full + ", cache " + cacheBefore
                        + " KiB before, " + cacheKib(c) + " KiB after, held " + held.size() + " x 64 KiB");
            }
        }

        private static long fullCollections() {
            long n = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc.getName().equals("G1 Old Generation")) {
                    n += gc.getCollectionCount();
                }
            }
            return n;
        }

        private static long cacheKib(Connection c) throws SQLException {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery(
                            "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'info.CACHE_MAX_SIZE'")) {
                rs.next();
                return Long.parseLong(rs.getString(1)) * 1024;
            }
        }

        private static long count(Connection c) throws SQLException {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM MESSAGES")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
