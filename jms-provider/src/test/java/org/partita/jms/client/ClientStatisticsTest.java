package org.partita.jms.client;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.partita.jms.transport.InMemoryBrokerConnection;
import org.partita.protocol.ErrorCode;

/** {@link ClientStatistics}: what the connections of a factory count, over network-free transports. */
class ClientStatisticsTest {

    private static PartitaConnection connection(InMemoryBrokerConnection transport, ClientStatistics stats)
            throws JMSException {
        return new PartitaConnection(transport, ConnectionOptions.parse("tcp://127.0.0.1:1"), null, Domain.ANY, stats);
    }

    private static CompletableFuture<Exception> sendAsync(MessageProducer p, Message m) throws JMSException {
        CompletableFuture<Exception> outcome = new CompletableFuture<>();
        p.send(m, new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                outcome.complete(null);
            }

            @Override
            public void onException(Message message, Exception exception) {
                outcome.complete(exception);
            }
        });
        return outcome;
    }

    @Test
    void everyKindOfSendCountsOnceAndEveryMessageTheApplicationGetsCountsOnce() throws Exception {
        ClientStatistics stats = new ClientStatistics();
        try (PartitaConnection c = connection(new InMemoryBrokerConnection(), stats)) {
            Session s = c.createSession();
            Queue q = s.createQueue("q");
            MessageProducer p = s.createProducer(q);
            p.send(s.createTextMessage("persistent"));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            p.send(s.createTextMessage("non-persistent"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            assertEquals(null, sendAsync(p, s.createTextMessage("async")).get(5, TimeUnit.SECONDS));
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            tx.createProducer(q).send(tx.createTextMessage("transacted"));
            tx.commit();
            assertEquals(4, stats.messagesSent());
            assertEquals(0, stats.sendsFailed());
            assertEquals(0, stats.messagesReceived(), "nothing reached the application yet");

            MessageConsumer consumer = s.createConsumer(q);
            c.start();
            assertNotNull(consumer.receive(5_000));
            assertNotNull(consumer.receive(5_000));
            assertEquals(2, stats.messagesReceived());
            AtomicInteger heard = new AtomicInteger();
            consumer.setMessageListener(m -> heard.incrementAndGet());
            await("the listener's two messages").atMost(Duration.ofSeconds(5)).until(() -> heard.get() == 2);
            assertEquals(4, stats.messagesReceived());
        }
    }

    @Test
    void aMessageReceiveBodyCouldNotConvertIsNotCounted() throws Exception {
        ClientStatistics stats = new ClientStatistics();
        PartitaConnection c = connection(new InMemoryBrokerConnection(), stats);
        try (JMSContext context = new PartitaJMSContext(c, JMSContext.AUTO_ACKNOWLEDGE)) {
            Queue q = context.createQueue("q");
            context.createProducer().send(q, "text");
            JMSConsumer consumer = context.createConsumer(q);
            assertThrows(MessageFormatRuntimeException.class, () -> consumer.receiveBody(Integer.class, 5_000));
            assertEquals(0, stats.messagesReceived(), "it went back to the buffer unseen");
            assertEquals("text", consumer.receiveBody(String.class, 5_000));
            assertEquals(1, stats.messagesReceived());
        }
    }

    @Test
    void refusedSendsCountAsFailed() throws Exception {
        ClientStatistics stats = new ClientStatistics();
        InMemoryBrokerConnection transport = new InMemoryBrokerConnection();
        try (PartitaConnection c = connection(transport, stats)) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("q"));
            transport.refuseSends(ErrorCode.RESOURCE_EXHAUSTED, "queue q is full");
            assertThrows(ResourceAllocationException.class, () -> p.send(s.createTextMessage("sync")));
            assertEquals(1, stats.sendsFailed());
            Exception async = sendAsync(p, s.createTextMessage("async")).get(5, TimeUnit.SECONDS);
            assertNotNull(async, "onException");
            // counted when the send's answer completes, which may run just after the listener heard it
            await("the async send counted").atMost(Duration.ofSeconds(5)).until(() -> stats.sendsFailed() == 2);
            assertEquals(0, stats.messagesSent());

            // unconfirmed: sent as far as the client knows, and failed once the node's refusal arrives
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            p.send(s.createTextMessage("non-persistent"));
            assertEquals(1, stats.messagesSent());
            await("the node's refusal").atMost(Duration.ofSeconds(5)).until(() -> stats.sendsFailed() == 3);
        }
    }

    @Test
    void connectionsCountOpenUntilClosedOrLostOnce() throws Exception {
        ClientStatistics stats = new ClientStatistics();
        InMemoryBrokerConnection lost = new InMemoryBrokerConnection();
        PartitaConnection first = connection(new InMemoryBrokerConnection(), stats);
        PartitaConnection second = connection(lost, stats);
        assertEquals(2, stats.connectionsOpen());
        assertEquals(2, stats.connectionsOpened());

        first.close();
        first.close();
        assertEquals(1, stats.connectionsOpen());

        lost.drop("the node went away");
        await("the loss").atMost(Duration.ofSeconds(5)).until(() -> stats.connectionsOpen() == 0);
        second.close();
        assertEquals(0, stats.connectionsOpen(), "a lost connection the application closes ends once");
        assertEquals(2, stats.connectionsOpened());
    }

    @Test
    void aFailoverCountsAndTheConnectionStaysOpen() throws Exception {
        try (FailoverFixture f = FailoverFixture.connected()) {
            ClientStatistics stats = f.connection.statistics();
            assertEquals(1, stats.connectionsOpen());
            f.lose(FailoverFixture.A);
            assertEquals(1, stats.failovers());
            assertEquals(1, stats.connectionsOpen());
            f.lose(FailoverFixture.B);
            assertEquals(2, stats.failovers());
        }
    }

    @Test
    void aFactoryKeepsOneCountForItsConnectionsAndAConnectionThatFailsIsNotCounted() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        PartitaConnectionFactory factory =
                new PartitaConnectionFactory("tcp://127.0.0.1:" + port + "?connectTimeout=2000");
        ClientStatistics stats = factory.getStatistics();
        assertSame(stats, factory.getStatistics());
        assertThrows(JMSException.class, factory::createConnection, "nothing listens there");
        assertEquals(0, stats.connectionsOpened());
        assertEquals(0, stats.connectionsOpen());

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(factory);
        }
        PartitaConnectionFactory copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (PartitaConnectionFactory) in.readObject();
        }
        assertNotSame(stats, copy.getStatistics(), "a copy counts its own connections");
        assertEquals(factory.getUrl(), copy.getUrl());
    }
}
