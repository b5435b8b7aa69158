package org.partita.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeConfigFileTest {
    @TempDir
    Path dir;

    private Path file(String... lines) throws IOException {
        Path f = dir.resolve("node.conf");
        Files.write(f, java.util.List.of(lines));
        return f;
    }

    private ConfigException error(String... lines) throws IOException {
        Path f = file(lines);
        return assertThrows(ConfigException.class, () -> NodeConfigFile.read(f, NodeConfig.defaults()));
    }

    @Test
    void everyFieldIsParsed() throws IOException {
        Path f = file(
                "nodeName = alpha",
                "host = 0.0.0.0",
                "port = 61801",
                "data = /var/lib/partita",
                "autoCreateQueues = false",
                "syncOnCommit = false",
                "maxFrameSize = 1048576",
                "residentBytes = 0");
        NodeConfig c = NodeConfigFile.read(f, NodeConfig.defaults());
        assertEquals(
                new NodeConfig(
                        "alpha",
                        "0.0.0.0",
                        61801,
                        Path.of("/var/lib/partita"),
                        false,
                        false,
                        1048576,
                        null,
                        false,
                        java.util.Map.of(),
                        0),
                c);
    }

    @Test
    void theDiskReserveOfLargeBodiesHasADefaultAndIsCheckedWhenSet() throws IOException {
        assertEquals(
                StorageSettings.DEFAULT_DISK_RESERVE_BYTES,
                NodeConfig.defaults().storage().diskReserveBytes());
        assertEquals(
                1L << 30,
                NodeConfigFile.read(file("storage.diskReserveBytes = 1073741824"), NodeConfig.defaults())
                        .storage()
                        .diskReserveBytes());
        assertEquals(
                0,
                NodeConfigFile.read(file("storage.diskReserveBytes = 0"), NodeConfig.defaults())
                        .storage()
                        .diskReserveBytes());
        assertTrue(error("storage.diskReserveBytes = -1").getMessage().contains("storage.diskReserveBytes"));
        assertTrue(error("storage.diskReserveBytes = lots").getMessage().contains("0 or more"));
    }

    @Test
    void metricsConsumerLabelsHasADefaultAndIsCheckedWhenSet() throws IOException {
        assertEquals(
                MetricsSettings.DEFAULT_CONSUMER_LABELS,
                NodeConfigFile.read(file("port = 1"), NodeConfig.defaults())
                        .metrics()
                        .consumerLabels());
        assertEquals(
                0,
                NodeConfigFile.read(file("metrics.consumerLabels = 0"), NodeConfig.defaults())
                        .metrics()
                        .consumerLabels());
        String m = error("metrics.consumerLabels = -1").getMessage();
        assertTrue(m.contains("node.conf:1") && m.contains("'metrics.consumerLabels'"), m);
        m = error("metrics.consumers = 5").getMessage();
        assertTrue(m.contains("unknown field 'metrics.consumers'") && m.contains("metrics.consumerLabels"), m);
    }

    @Test
    void theMetricsPortIsOffUnlessSetAndCheckedWhenSet() throws IOException {
        assertEquals(
                NodeConfig.METRICS_OFF,
                NodeConfigFile.read(file("port = 1"), NodeConfig.defaults()).metricsPort());
        assertEquals(
                9100,
                NodeConfigFile.read(file("metricsPort = 9100"), NodeConfig.defaults())
                        .metricsPort());
        String m = error("metricsPort = 70000").getMessage();
        assertTrue(m.contains("node.conf:1") && m.contains("'metricsPort'") && m.contains("0 to 65535"), m);
    }

    @Test
    void theEventLoopsAreHalfTheCoresUnlessIoThreadsSaysHowMany() throws IOException {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(
                Math.max(1, cores / 2),
                NodeConfigFile.read(file("port = 1"), NodeConfig.defaults()).eventLoops());
        assertEquals(
                Math.max(1, cores / 2),
                NodeConfigFile.read(file("ioThreads = 0"), NodeConfig.defaults())
                        .eventLoops());
        NodeConfig three = NodeConfigFile.read(file("ioThreads = 3"), NodeConfig.defaults());
        assertEquals(3, three.ioThreads());
        assertEquals(3, three.eventLoops());
        assertEquals(3, three.withPort(5).withSecurity(three.security()).eventLoops(), "kept by the other settings");
        String m = error("ioThreads = -1").getMessage();
        assertTrue(m.contains("node.conf:1") && m.contains("'ioThreads'") && m.contains("0 to 1024"), m);
    }

    @Test
    void limitsAreReadFromTheirOwnFields() throws IOException {
        Path f = file(
                "limits.handshakeFrameBytes = 4096",
                "limits.handshakeTimeout = 2000",
                "limits.connections = 10",
                "limits.sessionsPerConnection = 5",
                "limits.consumersPerConnection = 6",
                "limits.partitionsPerQueue = 64",
                "limits.destinationNameLength = 100",
                "limits.inFlightBytes = 50000000",
                "limits.producerWindowBytes = 65536",
                "limits.nonPersistentBytes = 1000000",
                "limits.transactionBytes = 2000000",
                "limits.writeBufferBytes = 3000000",
                "limits.pacedBacklogBytes = 4000",
                "limits.openTransactionBytes = 7000000",
                "limits.messageBytes = 1000");
        assertEquals(
                new FlowLimits(
                        4096,
                        2000,
                        10,
                        5,
                        6,
                        64,
                        100,
                        50_000_000L,
                        65536,
                        1_000_000,
                        2_000_000,
                        3_000_000,
                        4000,
                        7_000_000,
                        1000),
                NodeConfigFile.read(f, NodeConfig.defaults()).limits());
        assertEquals(
                FlowLimits.defaults(),
                NodeConfigFile.read(file("port = 1"), NodeConfig.defaults()).limits());
        String m = error("limits.connections = 0").getMessage();
        assertTrue(m.contains("node.conf:1") && m.contains("'limits.connections'"), m);
        m = error("limits.sockets = 3").getMessage();
        assertTrue(m.contains("unknown field 'limits.sockets'") && m.contains("limits.connections"), m);
    }

    @Test
    void rolesAndTlsAreReadFromTheirOwnFields() throws IOException {
        NodeConfig c = NodeConfigFile.read(
                file(
                        "roles = ./r.properties",
                        "tls.keyStore = ./node.p12",
                        "tls.keyStorePassword = pw",
                        "tls.trustStore = ./trust.p12",
                        "tls.clientAuth = NEED",
                        "tls.plaintext = off"),
                NodeConfig.defaults());
        assertEquals(java.nio.file.Path.of("./r.properties"), c.security().rolesFile());
        assertEquals(
                new TlsSettings(
                        java.nio.file.Path.of("./node.p12"),
                        "pw",
                        java.nio.file.Path.of("./trust.p12"),
                        "",
                        TlsSettings.ClientAuth.NEED,
                        TlsSettings.Plaintext.OFF),
                c.security().tls());
        assertEquals(
                null,
                NodeConfigFile.read(file("port = 1"), NodeConfig.defaults())
                        .security()
                        .tls());
        ConfigException noKeys = error("tls.plaintext = off");
        assertTrue(noKeys.getMessage().contains("tls.keyStore"), noKeys.getMessage());
        ConfigException bad = error("tls.keyStore = k", "tls.clientAuth = maybe");
        assertTrue(
                bad.getMessage().contains(":2: field 'tls.clientAuth' must be one of [none, want, need]"),
                bad.getMessage());
    }

    /** A node in a 128 MiB heap under G1, whatever heap the test runs in. */
    private static final HeapBudgets HEAP_128 = new HeapBudgets(new JvmMemory(128L << 20, 128L << 20, 1L << 20));

    private ConfigException refusedIn128MiB(String... lines) throws IOException {
        Path f = file(lines);
        return assertThrows(
                ConfigException.class, () -> NodeConfigFile.read(f, NodeConfig.defaults(HEAP_128), HEAP_128));
    }

    @Test
    void aBudgetLargerThanItsPartOfTheHeapIsRefusedOnOneLine() throws IOException {
        String m = refusedIn128MiB("port = 1", "limits.writeBufferBytes = 1073741824")
                .getMessage();
        assertEquals(
                dir.resolve("node.conf") + ":2: field 'limits.writeBufferBytes' = 1073741824 does not fit the 128 MiB"
                        + " heap: at most 1/8 of it (16777216 bytes); lower it or give the node more memory (-Xmx)",
                m);
        m = refusedIn128MiB("limits.messageBytes = 8388608").getMessage();
        assertTrue(
                m.startsWith(dir.resolve("node.conf")
                        + ":1: field 'limits.messageBytes' = 8388608 does not fit the 128 MiB heap"),
                m);
        m = refusedIn128MiB("maxFrameSize = 67108864").getMessage();
        assertTrue(m.contains(":1: field 'maxFrameSize' = 67108864") && m.contains("128 MiB heap"), m);
    }

    /** Ratis holds two log files of each replica set in the heap: a file past a sixteenth would not fit three sets. */
    @Test
    void aReplicaLogFileLargerThanItsPartOfTheHeapIsRefused() throws IOException {
        String m = refusedIn128MiB(
                        "nodeName = node1",
                        "cluster.name = c",
                        "cluster.nodes = node1@127.0.0.1:61700",
                        "cluster.replicaLog.segmentBytes = 33554432")
                .getMessage();
        assertTrue(
                m.startsWith(dir.resolve("node.conf")
                        + ":4: field 'cluster.replicaLog.segmentBytes' = 33554432 does not fit the 128 MiB heap:"
                        + " at most 1/16 of it (8388608 bytes)"),
                m);
        assertEquals(2 << 20, HEAP_128.replicaSegmentBytes(), "the default: a sixty-fourth");
        assertEquals(
                32 << 20,
                new HeapBudgets(new JvmMemory(4L << 30, 4L << 30, 1L << 20)).replicaSegmentBytes(),
                "at most 32 MiB");
    }

    @Test
    void nodeWideBudgetsThatTogetherPassTheirShareAreRefusedNamingTheLargestSet() throws IOException {
        String m = refusedIn128MiB("limits.nonPersistentBytes = 16777216", "residentBytes = 25165824")
                .getMessage();
        assertTrue(
                m.startsWith(
                        dir.resolve("node.conf") + ":2: field 'residentBytes' = 25165824 does not fit the 128 MiB heap:"
                                + " the node-wide budgets would take 67108864 bytes (limits.inFlightBytes 8388608 + limits.nonPersistentBytes"
                                + " 16777216 + limits.openTransactionBytes 8388608 + residentBytes 25165824 + the journal 8388608),"
                                + " more than 3/8 of it (50331648 bytes)"),
                m);
        assertFalse(m.contains("\n"), "one line");
    }

    @Test
    void budgetsThatFitTheHeapAreTaken() throws IOException {
        Path f = file(
                "limits.inFlightBytes = 16777216",
                "residentBytes = 4194304",
                "limits.transactionBytes = 16777216",
                "limits.messageBytes = 1048576");
        NodeConfig c = NodeConfigFile.read(f, NodeConfig.defaults(HEAP_128), HEAP_128);
        assertEquals(16L << 20, c.limits().inFlightBytes());
        assertEquals(4L << 20, c.residentBytes());
        assertEquals(1 << 20, c.limits().messageBytes());
        // the defaults are not checked: they are shares of the heap the node runs in
        NodeConfigFile.read(file("port = 1"), NodeConfig.defaults(HEAP_128), HEAP_128);
    }

    @Test
    void aNegativeMemoryBudgetIsRefused() throws IOException {
        String m = error("residentBytes = -1").getMessage();
        assertTrue(m.contains("node.conf:1") && m.contains("'residentBytes'"), m);
    }

    @Test
    void fieldsNotInTheFileKeepTheBaseValues() throws IOException {
        NodeConfig base = NodeConfig.defaults();
        assertEquals(base, NodeConfigFile.read(file(), base));
        assertEquals(base.withPort(1234), NodeConfigFile.read(file("port = 1234"), base));
    }

    @Test
    void booleansIgnoreCase() throws IOException {
        NodeConfig c = NodeConfigFile.read(
                file("autoCreateQueues = FALSE", "syncOnCommit = True"),
                NodeConfig.defaults().withSyncOnCommit(false));
        assertEquals(false, c.autoCreateQueues());
        assertEquals(true, c.syncOnCommit());
    }

    @Test
    void commentsBlankLinesAndSpacesAreIgnored() throws IOException {
        Path f = file(
                "# Partita node",
                "",
                "   ",
                "   # an indented comment = not a field",
                "\tnodeName\t=\tbeta\t",
                "port=61802",
                "#port = 1");
        NodeConfig c = NodeConfigFile.read(f, NodeConfig.defaults());
        assertEquals("beta", c.nodeName());
        assertEquals(61802, c.port());
    }

    @Test
    void aValueMayContainAnEqualsSign() throws IOException {
        NodeConfig c = NodeConfigFile.read(file("data = ./data=old"), NodeConfig.defaults());
        assertEquals(Path.of("./data=old"), c.dataDir());
    }

    @Test
    void unknownFieldNamesFileLineAndFieldAndListsTheKnownOnes() throws IOException {
        ConfigException e = error("# comment", "", "nodeName = a", "prot = 61700");
        String m = e.getMessage();
        assertTrue(m.contains(dir.resolve("node.conf") + ":4"), m);
        assertTrue(m.contains("'prot'"), m);
        assertTrue(m.contains("port") && m.contains("maxFrameSize"), m);
    }

    @Test
    void badIntegerNamesFileLineFieldAndValue() throws IOException {
        String m = error("nodeName = a", "port = sixty").getMessage();
        assertTrue(m.contains("node.conf:2"), m);
        assertTrue(m.contains("'port'"), m);
        assertTrue(m.contains("'sixty'"), m);
    }

    @Test
    void portOutOfRangeIsRefused() throws IOException {
        String m = error("port = 65536").getMessage();
        assertTrue(m.contains("node.conf:1") && m.contains("'port'") && m.contains("0 to 65535"), m);
        assertTrue(error("port = -1").getMessage().contains("'port'"));
    }

    @Test
    void maxFrameSizeBelowTheMinimumIsRefused() throws IOException {
        String m = error("", "maxFrameSize = 100").getMessage();
        assertTrue(m.contains("node.conf:2") && m.contains("'maxFrameSize'") && m.contains("'100'"), m);
        assertTrue(error("maxFrameSize = 99999999999").getMessage().contains("'maxFrameSize'"));
    }

    @Test
    void badBooleanNamesFileLineAndField() throws IOException {
        String m = error("syncOnCommit = yes").getMessage();
        assertTrue(m.contains("node.conf:1") && m.contains("'syncOnCommit'") && m.contains("true or false"), m);
        m = error("", "", "autoCreateQueues = 1").getMessage();
        assertTrue(m.contains("node.conf:3") && m.contains("'autoCreateQueues'"), m);
    }

    @Test
    void emptyTextValueNamesTheField() throws IOException {
        for (String field : new String[] {"nodeName", "host", "data"}) {
            String m = error(field + " =   ").getMessage();
            assertTrue(m.contains("node.conf:1") && m.contains("'" + field + "'") && m.contains("needs a value"), m);
        }
    }

    @Test
    void lineWithoutNameAndValueIsRefusedWithItsLine() throws IOException {
        String m = error("nodeName = a", "port 61700").getMessage();
        assertTrue(m.contains("node.conf:2") && m.contains("name = value") && m.contains("port 61700"), m);
        m = error("= 61700").getMessage();
        assertTrue(m.contains("node.conf:1") && m.contains("name = value"), m);
    }

    @Test
    void missingFileIsNamed() {
        Path missing = dir.resolve("nowhere.conf");
        ConfigException e =
                assertThrows(ConfigException.class, () -> NodeConfigFile.read(missing, NodeConfig.defaults()));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }
}
