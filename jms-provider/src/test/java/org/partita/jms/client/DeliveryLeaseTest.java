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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A prefetched message reaches the application only while its node has been heard from within the
 * delivery lease the node announced: a node of a cluster that went silent may have had its
 * partitions taken over and their messages redelivered elsewhere, flagged, and handing out the
 * buffered copy afterwards would give the application an unflagged repeat.
 */
class DeliveryLeaseTest {
    private final FacadeFixture f;

    DeliveryLeaseTest() throws JMSException {
        f = new FacadeFixture();
    }

    @AfterEach
    void close() throws JMSException {
        f.close();
    }

    /** A started consumer of queue "q" whose prefetch holds "one" and "two". */
    private MessageConsumer consumerWithTwoPrefetched(Session s) throws JMSException {
        Queue q = s.createQueue("q");
        MessageProducer p = s.createProducer(q);
        p.send(s.createTextMessage("one"));
        p.send(s.createTextMessage("two"));
        MessageConsumer c = s.createConsumer(q);
        f.connection.start();
        await("the prefetch").atMost(Duration.ofSeconds(5)).until(() -> f.transport.waiting("q") == 0);
        return c;
    }

    @Test
    void aSilentNodesPrefetchedMessageWaitsForItsAnswer() throws JMSException {
        Session s = f.connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer c = consumerWithTwoPrefetched(s);
        assertEquals("one", ((TextMessage) c.receive(5_000)).getText());
        f.transport.goSilent();
        // the receive's own timeout is what is checked: it gives up, empty-handed, while the node is silent
        assertNull(c.receive(200), "nothing handed out while the node has not answered");
        assertNull(c.receiveNoWait(), "nor by a receive that would not wait");
        f.transport.heardAgain();
        assertEquals("two", ((TextMessage) c.receive(5_000)).getText(), "kept, and handed out once it answered");
    }

    @Test
    void aNodeLostWhileSilentHasItsPrefetchedMessagesDropped() throws JMSException {
        Session s = f.connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer c = consumerWithTwoPrefetched(s);
        f.transport.goSilent();
        f.transport.lostWhileSilent();
        assertNull(c.receiveNoWait(), "what a lost node delivered is void: its node delivers it again");
        f.transport.goSilent();
        f.transport.heardAgain(); // a message still held would now be handed out
        assertNull(c.receiveNoWait(), "the prefetched messages were dropped, not kept");
    }

    @Test
    void whatANodeDeliveredBeforeItWasUnresponsiveIsHandedOutFlaggedInItsPlace() throws JMSException {
        Session s = f.connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer c = consumerWithTwoPrefetched(s);
        TextMessage one = (TextMessage) c.receive(5_000);
        assertEquals("one", one.getText());
        assertEquals(false, one.getJMSRedelivered());
        // say the node was paused with "two" in this client's buffer, and its partition taken over
        // by another node, which may have delivered "two" again, flagged
        f.transport.wasUnresponsive();
        TextMessage two = (TextMessage) c.receive(5_000);
        assertEquals("two", two.getText(), "in its place: nothing given back, nothing overtaken");
        assertEquals(true, two.getJMSRedelivered(), "may have been delivered by the other node");
        assertEquals(List.of(), f.transport.releasedUnseen());
    }

    @Test
    void aListenerWaitsForTheSilentNodeToo() throws Exception {
        Session s = f.connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        Queue q = s.createQueue("q");
        List<String> got = new CopyOnWriteArrayList<>();
        MessageConsumer c = s.createConsumer(q);
        f.transport.goSilent();
        c.setMessageListener(m -> {
            try {
                got.add(((TextMessage) m).getText());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        s.createProducer(q).send(s.createTextMessage("one"));
        f.connection.start();
        await("the prefetch").atMost(Duration.ofSeconds(5)).until(() -> f.transport.waiting("q") == 0);
        // not handed to the listener while the node is silent: nothing for a while
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(got::isEmpty);
        f.transport.heardAgain();
        await().atMost(Duration.ofSeconds(5)).until(() -> got.equals(List.of("one")));
    }
}
