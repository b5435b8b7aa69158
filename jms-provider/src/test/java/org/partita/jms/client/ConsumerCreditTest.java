package org.partita.jms.client;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.jms.destination.PartitaDestination;

/**
 * The room a consumer gives the node ({@link ConsumerCredit}), seen from the network-free transport:
 * what the node is granted, what it may deliver, and what comes back to it.
 */
class ConsumerCreditTest {
    private FacadeFixture f;

    private FacadeFixture fixture(int prefetch) throws JMSException {
        f = new FacadeFixture("tcp://127.0.0.1:1?prefetch=" + prefetch);
        return f;
    }

    @AfterEach
    void close() throws JMSException {
        if (f != null) {
            f.close();
        }
    }

    private static String wire(Queue q) {
        return ((PartitaDestination) q).encode();
    }

    private static void send(Session s, Queue q, int n) throws JMSException {
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < n; i++) {
            p.send(s.createTextMessage("m" + i)); // persistent: answered once the transport holds it
        }
        p.close();
    }

    private int consumerId() {
        return f.transport.openedConsumers().get(0).consumerId();
    }

    /** Waits until the transport has handled everything the client asked before (it answers in order). */
    private void roundTrip(Session s) throws JMSException {
        s.createProducer(s.createQueue("round-trip")).send(s.createTextMessage("fence"));
    }

    @Test
    void withPrefetchZeroAnIdleConsumerHoldsNothingAndEachReceiveAsksForOneMessage() throws JMSException {
        fixture(0);
        Session s = f.connection.createSession();
        Queue q = s.createQueue("q");
        send(s, q, 3);
        MessageConsumer c = s.createConsumer(q);
        f.connection.start();
        roundTrip(s);
        assertEquals(0, f.transport.openedConsumers().get(0).credit(), "opened without credit");
        assertEquals(0, f.transport.credit(consumerId()));
        assertEquals(3, f.transport.waiting(wire(q)), "an idle consumer holds nothing");

        assertEquals("m0", ((TextMessage) c.receive(5_000)).getText());
        roundTrip(s);
        assertEquals(2, f.transport.waiting(wire(q)), "one receive, one message");
        assertEquals(0, f.transport.credit(consumerId()));
    }

    @Test
    void withPrefetchZeroAReceiveThatTimesOutTakesItsRequestBack() throws JMSException {
        fixture(0);
        Session s = f.connection.createSession();
        Queue q = s.createQueue("q");
        MessageConsumer c = s.createConsumer(q);
        f.connection.start();
        assertNull(c.receive(100)); // a receive that times out on an empty queue: the scenario, not a wait
        assertEquals(0, f.transport.credit(consumerId()), "the pull was drained when the wait ended");
        send(s, q, 1);
        roundTrip(s);
        assertEquals(1, f.transport.waiting(wire(q)), "the message waits at the node for the next receive");
        assertEquals("m0", ((TextMessage) c.receive(5_000)).getText());
    }

    @Test
    void aConsumerOfAStoppedConnectionIsOpenedWithoutCreditAndGetsItsWindowOnStart() throws JMSException {
        fixture(10);
        Session s = f.connection.createSession();
        Queue q = s.createQueue("q");
        s.createConsumer(q);
        send(s, q, 3);
        assertEquals(0, f.transport.openedConsumers().get(0).credit());
        assertEquals(3, f.transport.waiting(wire(q)), "a stopped connection's consumer takes nothing");
        f.connection.start();
        roundTrip(s);
        assertEquals(0, f.transport.waiting(wire(q)));
        assertEquals(7, f.transport.credit(consumerId()), "the window of 10, less the 3 delivered");
    }

    @Test
    void takenMessagesGiveTheirRoomBackInBatchesOfHalfTheWindow() throws JMSException {
        fixture(4);
        Session s = f.connection.createSession();
        Queue q = s.createQueue("q");
        send(s, q, 10);
        MessageConsumer c = s.createConsumer(q);
        f.connection.start();
        roundTrip(s);
        assertEquals(6, f.transport.waiting(wire(q)), "the window of 4 was filled");

        c.receive(5_000);
        roundTrip(s);
        assertEquals(6, f.transport.waiting(wire(q)), "one taken: less than half the window is owed, nothing granted");
        c.receive(5_000);
        roundTrip(s);
        assertEquals(4, f.transport.waiting(wire(q)), "two taken: their room went back and was filled");
    }

    @Test
    void stoppingTheConnectionGivesBackWhatWasBufferedUnseenAndTakesBackTheCredit() throws JMSException {
        fixture(10);
        Session s = f.connection.createSession();
        Queue q = s.createQueue("q");
        send(s, q, 5);
        MessageConsumer c = s.createConsumer(q);
        f.connection.start();
        await("the buffer to fill").atMost(Duration.ofSeconds(5)).until(() -> f.transport.unsettled() == 5);

        f.connection.stop();
        roundTrip(s);
        assertEquals(5, f.transport.waiting(wire(q)), "everything buffered is back at the node");
        assertEquals(0, f.transport.unsettled());
        assertEquals(5, f.transport.releasedUnseen().size(), "given back unseen: not counted as delivered");
        assertEquals(List.of(), f.transport.releasedRedelivered());
        assertEquals(0, f.transport.credit(consumerId()), "a stopped consumer holds no credit");
        assertNull(c.receiveNoWait());

        f.connection.start();
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            got.add(((TextMessage) c.receive(5_000)).getText());
        }
        assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), got, "in the order sent");
    }
}
