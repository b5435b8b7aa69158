package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TransactionRolledBackException;
import java.time.Duration;
import java.util.Collections;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.naming.Context;
import javax.naming.InitialContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * docs/cluster.md, "Failover", against real nodes on loopback. The nodes are independent (they share
 * no queues yet), so each test checks what the node a connection moves to offers on its own.
 */
@Tag("slow")
class FailoverTest {
    @RegisterExtension
    final NodeExtension a = new NodeExtension();

    @RegisterExtension
    final NodeExtension b = new NodeExtension();

    @RegisterExtension
    final NodeExtension c = new NodeExtension();

    private final List<JMSException> told = new CopyOnWriteArrayList<>();

    private String url(NodeExtension... nodes) {
        StringBuilder url = new StringBuilder();
        for (NodeExtension n : nodes) {
            url.append(url.length() == 0 ? "" : ",").append(n.node().url());
        }
        return url.toString();
    }

    private List<JMSException> failovers() {
        return told.stream()
                .filter(e -> PartitaErrorCodes.FAILOVER.equals(e.getErrorCode()))
                .toList();
    }

    private void awaitFailovers(int n) {
        await("failover " + n)
                .atMost(Duration.ofSeconds(20))
                .until(() -> failovers().size() >= n);
    }

    private static int depth(ConnectionFactory f, String queue) throws JMSException {
        try (Connection conn = f.createConnection()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            QueueBrowser browser = s.createBrowser(s.createQueue(queue));
            return Collections.list(browser.getEnumeration()).size();
        }
    }

    @Test
    void aConsumerOpenedAgainOnTheNextNodeReceivesWhatIsSentThereAsEachNodeCloses() throws Exception {
        try (Connection conn = new PartitaConnectionFactory(url(a, b, c)).createConnection()) {
            conn.setExceptionListener(told::add);
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("orders");
            MessageConsumer consumer = s.createConsumer(q);
            MessageProducer producer = s.createProducer(q);
            conn.start();
            producer.send(s.createTextMessage("to A"));
            assertEquals("to A", ((TextMessage) consumer.receive(5_000)).getText());

            a.node().close();
            awaitFailovers(1);
            String report = failovers().get(0).getMessage();
            assertTrue(
                    report.contains(":" + a.node().port())
                            && report.contains("to node 127.0.0.1:" + b.node().port()),
                    report);
            producer.send(s.createTextMessage("to B"));
            assertEquals("to B", ((TextMessage) consumer.receive(5_000)).getText());
            assertEquals(0, depth(b.factory(), "orders"), "received and acknowledged on B");

            b.node().close();
            awaitFailovers(2);
            producer.send(s.createTextMessage("to C"));
            assertEquals("to C", ((TextMessage) consumer.receive(5_000)).getText());
            assertEquals(2, told.size(), "only the two switches are reported: " + told);
        }
    }

    @Test
    void aTransactionThatOnlySentIsMadeAgainOnTheNextNodeAndCommitsThereWhole() throws Exception {
        try (Connection conn = new PartitaConnectionFactory(url(a, b)).createConnection()) {
            conn.setExceptionListener(told::add);
            Session s = conn.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = s.createProducer(s.createQueue("ledger"));
            producer.send(s.createTextMessage("sent to A, not committed"));

            a.node().close();
            awaitFailovers(1);
            producer.send(s.createTextMessage("sent to B in the same transaction"));
            assertEquals(0, depth(b.factory(), "ledger"), "not committed yet");

            s.commit();
            assertEquals(2, depth(b.factory(), "ledger"), "the whole transaction, made again on B");
        }
        a.restart();
        assertEquals(0, depth(a.factory(), "ledger"), "A rolled back what it had of the transaction");
    }

    @Test
    void aTransactionThatReceivedOnTheLostNodeFailsItsCommitAndNothingOfItIsStored() throws Exception {
        try (Connection conn = new PartitaConnectionFactory(url(a, b)).createConnection()) {
            conn.setExceptionListener(told::add);
            try (Connection onA = a.factory().createConnection()) {
                Session plain = onA.createSession(false, Session.AUTO_ACKNOWLEDGE);
                plain.createProducer(plain.createQueue("orders")).send(plain.createTextMessage("an order"));
            }
            Session s = conn.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = s.createConsumer(s.createQueue("orders"));
            conn.start();
            assertNotNull(consumer.receive(5_000));
            MessageProducer producer = s.createProducer(s.createQueue("ledger"));
            producer.send(s.createTextMessage("booked from the order, not committed"));

            a.node().close();
            awaitFailovers(1);

            TransactionRolledBackException e = assertThrows(TransactionRolledBackException.class, s::commit);
            assertEquals(PartitaErrorCodes.FAILOVER, e.getErrorCode());
            assertEquals(0, depth(b.factory(), "ledger"), "the whole transaction is void, its part on B too");

            producer.send(s.createTextMessage("next transaction"));
            s.commit();
            assertEquals(1, depth(b.factory(), "ledger"));
        }
        a.restart();
        assertEquals(0, depth(a.factory(), "ledger"), "A rolled back what it had of the transaction");
        assertEquals(1, depth(a.factory(), "orders"), "the order it consumed is still there");
    }

    @Test
    void messagesReceivedButNotAcknowledgedOnTheLostNodeComeBackFromItWhenItReturns() throws Exception {
        try (Connection conn = new PartitaConnectionFactory(url(a, b)).createConnection()) {
            conn.setExceptionListener(told::add);
            Session s = conn.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("jobs");
            MessageProducer producer = s.createProducer(q);
            producer.send(s.createTextMessage("job 1"));
            producer.send(s.createTextMessage("job 2"));
            MessageConsumer consumer = s.createConsumer(q);
            conn.start();
            Message first = consumer.receive(5_000);
            assertNotNull(consumer.receive(5_000));

            a.node().close();
            awaitFailovers(1);

            first.acknowledge(); // does not fail the application, and reaches no node
            producer.send(s.createTextMessage("job 3"));
            Message third = consumer.receive(5_000);
            assertEquals("job 3", ((TextMessage) third).getText());
            third.acknowledge();
            assertEquals(0, depth(b.factory(), "jobs"));
        }
        a.restart();
        try (Connection again = a.factory().createConnection()) {
            Session s = again.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("jobs"));
            again.start();
            for (String job : List.of("job 1", "job 2")) {
                Message m = consumer.receive(5_000);
                assertEquals(job, ((TextMessage) m).getText());
                assertTrue(m.getJMSRedelivered(), job + " was delivered before, so it comes back flagged");
            }
        }
    }

    @Test
    void aDurableSubscriptionIsOpenedAgainByNameOnTheNextNode() throws Exception {
        try (Connection conn = new PartitaConnectionFactory(url(a, b) + "?clientID=billing").createConnection()) {
            conn.setExceptionListener(told::add);
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic prices = s.createTopic("mfg/prices");
            MessageConsumer subscriber = s.createDurableSubscriber(prices, "all-prices");
            conn.start();

            a.node().close();
            awaitFailovers(1);
            subscriber.close();
            s.createProducer(prices).send(s.createTextMessage("kept by the subscription on B"));
            subscriber = s.createDurableSubscriber(prices, "all-prices");
            assertEquals("kept by the subscription on B", ((TextMessage) subscriber.receive(5_000)).getText());
        }
    }

    @Test
    void jndiProviderUrlWithSeveralNodesGivesAFactoryThatFailsOver() throws Exception {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.partita.jms.jndi.PartitaInitialContextFactory");
        env.put(Context.PROVIDER_URL, url(a, b) + "?failoverTimeout=10000");
        env.put("queue.orders", "orders");
        Context jndi = new InitialContext(env);
        try (JMSContext context = ((ConnectionFactory) jndi.lookup("ConnectionFactory")).createContext()) {
            context.setExceptionListener(told::add);
            Queue orders = (Queue) jndi.lookup("orders");
            jakarta.jms.JMSConsumer consumer = context.createConsumer(orders);
            context.createProducer().send(orders, "to A");
            assertEquals("to A", consumer.receiveBody(String.class, 5_000));

            a.node().close();
            awaitFailovers(1);
            context.createProducer().send(orders, "to B");
            assertEquals("to B", consumer.receiveBody(String.class, 5_000));
        } finally {
            jndi.close();
        }
    }

    @Test
    void whenNoNodeAnswersWithinFailoverTimeoutTheConnectionFails() throws Exception {
        Connection conn = new PartitaConnectionFactory(url(a, b) + "?failoverTimeout=500").createConnection();
        try {
            conn.setExceptionListener(told::add);
            conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            b.node().close();
            a.node().close();

            await("the loss").atMost(Duration.ofSeconds(20)).until(() -> !told.isEmpty());
            JMSException lost = told.get(0);
            assertFalse(PartitaErrorCodes.FAILOVER.equals(lost.getErrorCode()), lost.getMessage());
            assertTrue(lost.getMessage().contains("failoverTimeout (500 ms)"), lost.getMessage());
            assertThrows(IllegalStateException.class, () -> conn.createSession(false, Session.AUTO_ACKNOWLEDGE));
        } finally {
            CrashRecoveryTest.closeQuietly(conn);
        }
    }
}
