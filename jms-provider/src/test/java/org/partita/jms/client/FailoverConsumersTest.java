package org.partita.jms.client;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.jms.client.FailoverFixture.A;
import static org.partita.jms.client.FailoverFixture.B;
import static org.partita.jms.client.FailoverFixture.C;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.jms.api.PartitaConsumer;
import org.partita.jms.api.PartitionListener;
import org.partita.jms.transport.BrokerConnection.ConsumerSpec;
import org.partita.protocol.Frame;

/** docs/cluster.md, "Failover": what consumers see when their connection moves to another node. */
class FailoverConsumersTest {
    private FailoverFixture f;

    @AfterEach
    void close() throws JMSException {
        f.close();
    }

    @Test
    void consumersAreOpenedAgainOnTheNextNodeUnderTheSameIdsAndReceiveWhatIsSentThere() throws JMSException {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        MessageConsumer consumer = s.createConsumer(q);
        MessageProducer producer = s.createProducer(q);
        f.connection.start();
        producer.send(s.createTextMessage("on A"));
        assertEquals("on A", ((TextMessage) consumer.receive(5_000)).getText());

        JMSException report = f.lose(A);

        assertTrue(
                report.getMessage().contains("127.0.0.1:61700")
                        && report.getMessage().contains("127.0.0.1:61701"),
                report.getMessage());
        assertEquals(List.of(A, B), f.nodes.attempts().subList(0, 2), "the node after the lost one is tried first");
        assertEquals(f.on(A).openSessions(), f.on(B).openSessions(), "the same session ids");
        ConsumerSpec before = f.on(A).openedConsumers().get(0);
        ConsumerSpec after = f.on(B).openedConsumers().get(0);
        assertEquals(before.consumerId(), after.consumerId());
        assertEquals(before.destination(), after.destination());
        producer.send(s.createTextMessage("on B"));
        assertEquals("on B", ((TextMessage) consumer.receive(5_000)).getText());
        await("the acknowledgement on B")
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.on(B).unsettled() == 0);
    }

    @Test
    void aStartedConnectionsConsumerGetsItsWholeWindowBackWithoutWhatTheLostNodeHadPrefetched() throws JMSException {
        f = new FailoverFixture().connect("?prefetch=10");
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        MessageProducer producer = s.createProducer(q);
        for (int i = 0; i < 4; i++) {
            producer.send(s.createTextMessage("on A " + i));
        }
        MessageConsumer consumer = s.createConsumer(q);
        f.connection.start();
        int id = f.on(A).openedConsumers().get(0).consumerId();
        await("A's messages prefetched")
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.on(A).unsettled() == 4);

        f.lose(A);

        await("the full window on B")
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.on(B).credit(id) == 10);
        assertNull(consumer.receiveNoWait(), "what A had prefetched is void, not handed out");
        producer.send(s.createTextMessage("on B"));
        assertEquals("on B", ((TextMessage) consumer.receive(5_000)).getText());
    }

    @Test
    void aReceiveWaitingWithPrefetchZeroGetsWhatIsSentToTheNextNode() throws Exception {
        f = new FailoverFixture().connect("?prefetch=0");
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        MessageConsumer consumer = s.createConsumer(q);
        f.connection.start();
        int id = f.on(A).openedConsumers().get(0).consumerId();
        CompletableFuture<Message> received = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.receive(20_000);
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        await("the receive asking A for one message")
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.on(A).credit(id) == 1);

        f.lose(A);

        assertEquals(1, f.on(B).credit(id), "B is asked for the message A did not deliver");
        s.createProducer(q).send(s.createTextMessage("on B"));
        assertEquals("on B", ((TextMessage) received.get(10, TimeUnit.SECONDS)).getText());
    }

    @Test
    void aMessageListenerGoesOnWithWhatTheNextNodeDelivers() throws JMSException {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        List<String> heard = new CopyOnWriteArrayList<>();
        s.createConsumer(q).setMessageListener(m -> {
            try {
                heard.add(((TextMessage) m).getText());
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        f.connection.start();
        MessageProducer producer = s.createProducer(q);
        producer.send(s.createTextMessage("on A"));
        await("A's message").atMost(Duration.ofSeconds(5)).until(() -> heard.size() == 1);

        f.lose(A);
        producer.send(s.createTextMessage("on B"));

        await("B's message").atMost(Duration.ofSeconds(5)).until(() -> heard.size() == 2);
        assertEquals(List.of("on A", "on B"), heard);
    }

    @Test
    void aStoppedConnectionsConsumerGetsNoCreditOnTheNextNodeUntilStarted() throws JMSException {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        MessageConsumer consumer = s.createConsumer(q);
        int id = f.on(A).openedConsumers().get(0).consumerId();

        f.lose(A);

        await("the consumer on B")
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.on(B).credit(id) == 0);
        s.createProducer(q).send(s.createTextMessage("on B"));
        assertEquals(1, f.on(B).waiting("queue:orders"), "a stopped connection's consumer holds nothing");
        f.connection.start();
        assertEquals("on B", ((TextMessage) consumer.receive(5_000)).getText());
    }

    @Test
    void acknowledgingMessagesOfTheLostNodeDoesNotFailAndAcknowledgesNothingOnTheNewOne() throws JMSException {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        MessageConsumer consumer = s.createConsumer(q);
        MessageProducer producer = s.createProducer(q);
        f.connection.start();
        producer.send(s.createTextMessage("on A"));
        Message fromA = consumer.receive(5_000);
        assertNotNull(fromA);

        f.lose(A);
        producer.send(s.createTextMessage("on B"));
        // B numbers its first delivery 1, as A did: acknowledging A's must not settle B's
        await("B's delivery in the consumer's buffer")
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.on(B).unsettled() == 1);

        fromA.acknowledge();
        assertEquals(List.of(), f.on(B).acknowledged(), "nothing of A's reaches B");
        assertEquals(1, f.on(B).unsettled());
        Message fromB = consumer.receive(5_000);
        assertEquals("on B", ((TextMessage) fromB).getText());
        fromB.acknowledge();
        assertEquals(List.of(1L), f.on(B).acknowledged());
    }

    @Test
    void durableSubscriptionsAreOpenedAgainByNameUnderTheClientIdSetAfterConnecting() throws JMSException {
        f = new FailoverFixture().connectQuietly("");
        f.connection.setClientID("billing");
        f.connection.setExceptionListener(f.told::add);
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic prices = s.createTopic("mfg/prices");
        s.createDurableSubscriber(prices, "all-prices");

        f.lose(A);

        ConsumerSpec again = f.on(B).openedConsumers().get(0);
        assertEquals("all-prices", again.subscription());
        assertEquals(Frame.FLAG_DURABLE, again.flags() & Frame.FLAG_DURABLE);
        assertEquals("billing", f.on(B).login().clientId(), "the handshake with B names the client id");
    }

    @Test
    void partitionsOwnedOnTheLostNodeAreRevoked() throws JMSException {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        PartitaConsumer consumer = (PartitaConsumer) s.createConsumer(s.createQueue("orders?partitions=4"));
        List<Set<Integer>> revoked = new CopyOnWriteArrayList<>();
        List<Set<Integer>> assigned = new CopyOnWriteArrayList<>();
        consumer.setPartitionListener(new PartitionListener() {
            @Override
            public void onPartitionsAssigned(Set<Integer> partitions) {
                assigned.add(partitions);
            }

            @Override
            public void onPartitionsRevoked(Set<Integer> partitions) {
                revoked.add(partitions);
            }
        });
        f.on(A).announcePartitions(f.on(A).openedConsumers().get(0).consumerId(), 0, 2);
        await("the assignment on A").atMost(Duration.ofSeconds(5)).until(() -> assigned.size() == 1);

        f.lose(A);

        await("the revocation").atMost(Duration.ofSeconds(5)).until(() -> revoked.size() == 1);
        assertEquals(Set.of(0, 2), revoked.get(0));
        assertEquals(Set.of(), consumer.getOwnedPartitions());
    }

    @Test
    void consumersOfTemporaryDestinationsAreNotOpenedAgainAndTheReportSaysSo() throws JMSException {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        TemporaryQueue replies = s.createTemporaryQueue();
        MessageConsumer onTemporary = s.createConsumer(replies);
        s.createConsumer(s.createQueue("orders"));

        JMSException report = f.lose(A);

        assertEquals(1, f.on(B).openedConsumers().size(), "only the queue's consumer");
        assertTrue(report.getMessage().contains("temporary"), report.getMessage());
        onTemporary.close();
        await("no report of the close")
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.told.size() == 1);
    }

    @Test
    void eachFailoverMovesToTheNodeAfterTheLostOneWrappingAround() throws JMSException {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        MessageConsumer consumer = s.createConsumer(q);
        f.connection.start();

        f.lose(A);
        f.nodes.up(A);
        f.lose(B);
        assertNotNull(f.on(C), "after B comes C");
        f.lose(C);
        assertEquals(2, f.nodes.connectionsTo(A), "after C, A again");

        s.createProducer(q).send(s.createTextMessage("on A again"));
        assertEquals("on A again", ((TextMessage) consumer.receive(5_000)).getText());
        assertEquals(3, f.failovers().size());
    }

    @Test
    void aNodeThatRefusesToOpenAConsumerAgainIsPassedOver() throws JMSException {
        f = FailoverFixture.connected();
        f.nodes.refuseConsumers(B, org.partita.protocol.ErrorCode.NOT_AUTHORIZED);
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        MessageConsumer consumer = s.createConsumer(q);
        f.connection.start();

        JMSException report = f.lose(A);

        assertTrue(report.getMessage().contains("to node 127.0.0.1:61702"), report.getMessage());
        s.createProducer(q).send(s.createTextMessage("on C"));
        assertEquals("on C", ((TextMessage) consumer.receive(5_000)).getText());
    }
}
