package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.client.PartitaXAConnectionFactory;

/**
 * The transaction manager's own process is killed with SIGKILL after both resources prepared and
 * its decision was logged: the node keeps its branch in doubt (the order locked, the invoice
 * unsent), and Narayana's recovery, run later over the same log, commits both branches once.
 */
@Tag("slow")
class TmCrashXaTest {
    private static final long WAIT_MS = 10_000;
    private static final long NOTHING_MS = 500;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @TempDir
    Path tmp;

    @Test
    void aTransactionManagerKilledAfterThePrepareIsCompletedByItsRecovery() throws Exception {
        Path database = tmp.resolve("accounts");
        Path store = Files.createDirectories(tmp.resolve("tm-log"));
        XaWork.createAccounts(database);
        send(XaWork.ORDERS, "order-9");

        Process tm = start("work", store, database, tmp.resolve("tm-work.txt"));
        try {
            await("the transaction manager reaches its commit phase")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        assertTrue(
                                tm.isAlive(),
                                () -> "the transaction manager exited: " + read(tmp.resolve("tm-work.txt")));
                        return read(tmp.resolve("tm-work.txt")).contains(XaTmProcess.IN_COMMIT);
                    });
        } finally {
            tm.destroyForcibly(); // SIGKILL
            assertTrue(tm.waitFor(30, TimeUnit.SECONDS));
        }

        try (XAConnection c = new PartitaXAConnectionFactory(node.node().url()).createXAConnection()) {
            assertEquals(
                    1,
                    c.createXASession().getXAResource().recover(XAResource.TMSTARTRSCAN).length,
                    "the node holds the prepared branch");
        }
        assertNull(receive(XaWork.INVOICES, NOTHING_MS), "the invoice waits for the outcome");
        assertNull(receive(XaWork.ORDERS, NOTHING_MS), "the order stays locked");
        assertEquals(1, XaWork.inDoubtInDatabase(database).size(), "H2 holds its prepared branch too");
        assertEquals(0, XaWork.balance(database));

        Process recovery = start("recover", store, database, tmp.resolve("tm-recover.txt"));
        assertTrue(recovery.waitFor(120, TimeUnit.SECONDS), "recovery finishes");
        assertEquals(0, recovery.exitValue(), () -> read(tmp.resolve("tm-recover.txt")));

        assertEquals("invoice for order-9", receive(XaWork.INVOICES, WAIT_MS).getText());
        assertNull(receive(XaWork.INVOICES, NOTHING_MS), "sent once");
        assertNull(receive(XaWork.ORDERS, NOTHING_MS), "consumed once");
        assertEquals(1, XaWork.balance(database), "applied once");
        assertEquals(0, XaWork.inDoubtInDatabase(database).size());
        try (XAConnection c = new PartitaXAConnectionFactory(node.node().url()).createXAConnection()) {
            assertEquals(0, c.createXASession().getXAResource().recover(XAResource.TMSTARTRSCAN).length);
        }
    }

    private Process start(String mode, Path store, Path database, Path output) throws Exception {
        return new ProcessBuilder(ChildNode.javaCommand(
                        XaTmProcess.class.getName(),
                        mode,
                        store.toString(),
                        node.node().url(),
                        database.toString()))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void send(String queue, String text) throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue(queue)).send(s.createTextMessage(text));
        }
    }

    private TextMessage receive(String queue, long millis) throws Exception {
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            return (TextMessage) s.createConsumer(s.createQueue(queue)).receive(millis);
        }
    }
}
