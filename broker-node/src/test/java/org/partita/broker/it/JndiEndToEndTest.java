package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.Hashtable;
import javax.naming.Context;
import javax.naming.InitialContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The README's JNDI walk-through, against a real node. */
@Tag("slow")
class JndiEndToEndTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private Context jndi;

    @BeforeEach
    void lookUpNode() throws Exception {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.partita.jms.jndi.PartitaInitialContextFactory");
        env.put(Context.PROVIDER_URL, node.node().url());
        env.put("queue.orders", "orders");
        env.put("connectionFactory.cts", node.node().url() + "?clientID=cts");
        jndi = new InitialContext(env);
    }

    @AfterEach
    void closeContext() throws Exception {
        jndi.close();
    }

    @Test
    void readmeExampleSendsAndReceivesThroughJndi() throws Exception {
        ConnectionFactory cf = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        Queue orders = (Queue) jndi.lookup("orders");
        assertEquals("orders", orders.getQueueName());
        try (Connection connection = cf.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            session.createProducer(orders).send(session.createTextMessage("hello"));
            connection.start();
            TextMessage m = (TextMessage) session.createConsumer(orders).receive(5000);
            assertNotNull(m);
            assertEquals("hello", m.getText());
        }
    }

    @Test
    void clientIdFromTheUrlIsTheConnectionsAndIsHeldByOneConnectionAtATime() throws Exception {
        ConnectionFactory cts = (ConnectionFactory) jndi.lookup("cts");
        Queue orders = (Queue) jndi.lookup("orders");
        try (Connection first = cts.createConnection()) {
            assertEquals("cts", first.getClientID());
            assertThrows(
                    InvalidClientIDException.class, cts::createConnection, "a second connection with client id cts");
            assertThrows(
                    IllegalStateException.class,
                    () -> first.setClientID("other"),
                    "the client id was set administratively, in the URL");
            assertEquals("cts", first.getClientID());

            Session s = first.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(orders).send(s.createTextMessage("from cts"));
            first.start();
            assertEquals("from cts", ((TextMessage) s.createConsumer(orders).receive(5000)).getText());
        }
        // closing the first connection frees the id
        await("client id cts to be free again").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            try (Connection again = cts.createConnection()) {
                assertEquals("cts", again.getClientID());
            }
        });
    }

    @Test
    void clientIdSetByTheApplicationIsExclusiveToo() throws Exception {
        ConnectionFactory cf = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        try (Connection first = cf.createConnection();
                Connection second = cf.createConnection()) {
            first.setClientID("app-1");
            assertEquals("app-1", first.getClientID());
            assertThrows(InvalidClientIDException.class, () -> second.setClientID("app-1"));
            second.setClientID("app-2");
            assertEquals("app-2", second.getClientID());
        }
    }
}
