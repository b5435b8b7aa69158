package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.ConfigException;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.config.NodeConfigFile;

/** README: "an error names the file, the line and the field". */
@Tag("slow")
class ConfigFileTest {
    @TempDir
    Path tmp;

    private Path file(String name, String... lines) throws Exception {
        Path f = tmp.resolve(name);
        Files.write(f, java.util.List.of(lines));
        return f;
    }

    private void assertNames(ConfigException e, Path file, int line, String... words) {
        String msg = e.getMessage();
        assertTrue(msg.contains(file.toString() + ":" + line), "names " + file + " line " + line + ": " + msg);
        for (String w : words) {
            assertTrue(msg.contains(w), "mentions '" + w + "': " + msg);
        }
    }

    @Test
    void unknownFieldIsNamedWithFileAndLine() throws Exception {
        Path f = file("unknown.conf", "# node", "", "nodeName = n1", "colour = blue");
        ConfigException e = assertThrows(ConfigException.class, () -> NodeConfigFile.read(f, NodeConfig.defaults()));
        assertNames(e, f, 4, "colour");
    }

    @Test
    void badIntegerIsNamedWithFileLineAndField() throws Exception {
        Path f = file("int.conf", "port = 61700", "maxFrameSize = lots");
        ConfigException e = assertThrows(ConfigException.class, () -> NodeConfigFile.read(f, NodeConfig.defaults()));
        assertNames(e, f, 2, "maxFrameSize", "lots");

        Path range = file("range.conf", "port = 70000");
        assertNames(
                assertThrows(ConfigException.class, () -> NodeConfigFile.read(range, NodeConfig.defaults())),
                range,
                1,
                "port",
                "70000");
    }

    @Test
    void badBooleanIsNamedWithFileLineAndField() throws Exception {
        Path f = file("bool.conf", "# durable", "syncOnCommit = yes");
        ConfigException e = assertThrows(ConfigException.class, () -> NodeConfigFile.read(f, NodeConfig.defaults()));
        assertNames(e, f, 2, "syncOnCommit", "yes");
    }

    @Test
    void lineWithoutEqualsSignIsNamedWithFileAndLine() throws Exception {
        Path f = file("noeq.conf", "nodeName = n1", "host 127.0.0.1");
        ConfigException e = assertThrows(ConfigException.class, () -> NodeConfigFile.read(f, NodeConfig.defaults()));
        assertNames(e, f, 2, "host", "=");
    }

    @Test
    void missingFileIsNamed() {
        Path f = tmp.resolve("nowhere.conf");
        ConfigException e = assertThrows(ConfigException.class, () -> NodeConfigFile.read(f, NodeConfig.defaults()));
        assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
    }

    @Test
    void validFileIsRead() throws Exception {
        Path data = tmp.resolve("node-data");
        Path f = file(
                "good.conf",
                "# a node",
                "nodeName = alpha",
                "  host = 127.0.0.1  ",
                "port = 61799",
                "data = " + data,
                "",
                "autoCreateQueues = false",
                "syncOnCommit = FALSE",
                "maxFrameSize = 65536");
        NodeConfig c = NodeConfigFile.read(f, NodeConfig.defaults());
        assertEquals(
                new NodeConfig("alpha", "127.0.0.1", 61799, data, false, false, 65536, null, false, java.util.Map.of()),
                c);
    }

    @Test
    void fieldsNotInTheFileKeepTheirDefaults() throws Exception {
        Path f = file("partial.conf", "port = 61800");
        assertEquals(NodeConfig.defaults().withPort(61800), NodeConfigFile.read(f, NodeConfig.defaults()));
    }

    @Test
    void nodeMainWithABadConfigExitsWithCode2AndSaysWhere() throws Exception {
        Path f = file("bad-main.conf", "nodeName = n1", "port = 0", "syncOnCommit = perhaps");
        ChildNode p = ChildNode.startWithArgs(
                tmp.resolve("main-bad"),
                "--config",
                f.toString(),
                "--data",
                tmp.resolve("d").toString());
        try {
            int code = p.awaitExit(Duration.ofSeconds(60));
            assertEquals(2, code, "exit code; stderr:\n" + p.stderr());
            String err = p.stderr();
            assertTrue(err.contains(f.toString() + ":3"), "stderr names the file and line: " + err);
            assertTrue(err.contains("syncOnCommit"), "stderr names the field: " + err);
            assertTrue(!p.stdout().contains("ready at"), "no node was started");
        } finally {
            p.close();
        }
    }

    @Test
    void nodeMainStartsFromAConfigFileAndOptionsOverrideIt() throws Exception {
        Path f = file("main.conf", "nodeName = from-file", "port = 1", "data = " + tmp.resolve("ignored"));
        // --port and --data override the file; the node name comes from the file
        ChildNode node = ChildNode.startWithArgs(
                tmp.resolve("main-good"),
                "--config",
                f.toString(),
                "--port",
                "0",
                "--data",
                tmp.resolve("d").toString());
        try {
            node.awaitReady();
            assertEquals("from-file", node.nodeName());
            assertTrue(node.port() > 1);
            assertTrue(Files.isDirectory(tmp.resolve("d")), "the --data folder holds the store");
            assertTrue(!Files.exists(tmp.resolve("ignored")), "the file's data folder was overridden");
            try (Connection c = node.factory().createConnection()) {
                c.start();
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                s.createProducer(s.createQueue("cfg")).send(s.createTextMessage("configured"));
                assertEquals(
                        "configured",
                        ((TextMessage) s.createConsumer(s.createQueue("cfg")).receive(5000)).getText());
            }
        } finally {
            node.close();
        }
    }
}
