package org.partita.tck.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.ForeignMessages;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, chapter 7 (sending messages) and the header fields set by send (3.4). */
class MessageProducerTest extends TckTest {

    @Test
    @DisplayName("7.1: a producer reports its destination")
    void producerDestination() throws JMSException {
        Queue q = queue();
        MessageProducer p = connection().createSession().createProducer(q);
        assertEquals(q, p.getDestination());
    }

    @Test
    @DisplayName("7.1: a producer created without destination has a null destination")
    void anonymousProducerDestination() throws JMSException {
        assertNull(connection().createSession().createProducer(null).getDestination());
    }

    @Test
    @DisplayName("7.1: a producer created without destination sends to the destination named on each send")
    void anonymousProducerSends() throws JMSException {
        Queue q1 = queue("a");
        Queue q2 = queue("b");
        Session s = session();
        MessageProducer p = s.createProducer(null);
        p.send(q1, s.createTextMessage("to a"));
        p.send(q2, s.createTextMessage("to b"));
        assertReceivesText(s.createConsumer(q1), "to a");
        assertReceivesText(s.createConsumer(q2), "to b");
    }

    @Test
    @DisplayName("7.1 / MessageProducer.send(Message): a producer without destination refuses send(Message) "
            + "with UnsupportedOperationException")
    void anonymousProducerNeedsDestination() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(null);
        assertThrows(UnsupportedOperationException.class, () -> p.send(s.createTextMessage("x")));
    }

    @Test
    @DisplayName("7.1 / MessageProducer.send(Destination, Message): a producer with a destination refuses "
            + "another destination with UnsupportedOperationException")
    void identifiedProducerRefusesOtherDestination() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue("a"));
        Queue other = queue("b");
        assertThrows(UnsupportedOperationException.class, () -> p.send(other, s.createTextMessage("x")));
    }

    @Test
    @DisplayName("MessageProducer.send(Destination, Message): a null destination on an anonymous producer is "
            + "refused with InvalidDestinationException (10.3)")
    void anonymousProducerNullDestination() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(null);
        assertThrows(InvalidDestinationException.class, () -> p.send(null, s.createTextMessage("x")));
    }

    @Test
    @DisplayName("MessageProducer: delivery mode PERSISTENT, priority 4, time to live 0 and delivery delay 0 are "
            + "the defaults")
    void defaults() throws JMSException {
        MessageProducer p = connection().createSession().createProducer(queue());
        assertEquals(DeliveryMode.PERSISTENT, p.getDeliveryMode());
        assertEquals(Message.DEFAULT_PRIORITY, p.getPriority());
        assertEquals(4, p.getPriority());
        assertEquals(0L, p.getTimeToLive());
        assertEquals(0L, p.getDeliveryDelay());
        assertFalse(p.getDisableMessageID());
        assertFalse(p.getDisableMessageTimestamp());
    }

    @Test
    @DisplayName("7.4: the producer's delivery options can be set and read back")
    void optionsRoundTrip() throws JMSException {
        MessageProducer p = connection().createSession().createProducer(queue());
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        p.setPriority(7);
        p.setTimeToLive(60_000);
        p.setDeliveryDelay(10);
        p.setDisableMessageID(true);
        p.setDisableMessageTimestamp(true);
        assertEquals(DeliveryMode.NON_PERSISTENT, p.getDeliveryMode());
        assertEquals(7, p.getPriority());
        assertEquals(60_000L, p.getTimeToLive());
        assertEquals(10L, p.getDeliveryDelay());
        assertTrue(p.getDisableMessageID());
        assertTrue(p.getDisableMessageTimestamp());
    }

    @Test
    @DisplayName("3.4.3: after send, JMSMessageID holds a provider value starting with 'ID:'")
    void messageIdAssigned() throws JMSException {
        Session s = connection().createSession();
        TextMessage m = s.createTextMessage("x");
        s.createProducer(queue()).send(m);
        assertNotNull(m.getJMSMessageID());
        assertTrue(m.getJMSMessageID().startsWith("ID:"), m.getJMSMessageID());
    }

    @Test
    @DisplayName("3.4.3: each message sent gets its own JMSMessageID")
    void messageIdsUnique() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            TextMessage m = s.createTextMessage("m" + i);
            p.send(m);
            ids.add(m.getJMSMessageID());
        }
        assertEquals(50, ids.size());
    }

    @Test
    @DisplayName("3.4.3: the receiver sees the JMSMessageID the sender saw after send")
    void messageIdSeenByReceiver() throws JMSException {
        Queue q = queue();
        Session s = session();
        TextMessage m = s.createTextMessage("x");
        s.createProducer(q).send(m);
        assertEquals(m.getJMSMessageID(), receive(s.createConsumer(q)).getJMSMessageID());
    }

    @Test
    @DisplayName("3.4.3: with message ids disabled, JMSMessageID is null or a normal 'ID:' value")
    void disableMessageIdHint() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setDisableMessageID(true);
        p.send(s.createTextMessage("x"));
        String id = receive(s.createConsumer(q)).getJMSMessageID();
        assertTrue(id == null || id.startsWith("ID:"), id);
    }

    @Test
    @DisplayName("3.4.4: after send, JMSTimestamp lies between the call and the return of send")
    void timestampWithinSend() throws JMSException {
        Session s = connection().createSession();
        TextMessage m = s.createTextMessage("x");
        long before = System.currentTimeMillis();
        s.createProducer(queue()).send(m);
        long after = System.currentTimeMillis();
        assertTrue(
                m.getJMSTimestamp() >= before && m.getJMSTimestamp() <= after,
                before + " <= " + m.getJMSTimestamp() + " <= " + after);
    }

    @Test
    @DisplayName("3.4.4: with timestamps disabled, JMSTimestamp is zero or a normal value")
    void disableTimestampHint() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setDisableMessageTimestamp(true);
        long before = System.currentTimeMillis();
        p.send(s.createTextMessage("x"));
        long ts = receive(s.createConsumer(q)).getJMSTimestamp();
        assertTrue(ts == 0 || ts >= before, String.valueOf(ts));
    }

    @Test
    @DisplayName("3.4.1: after send, JMSDestination holds the destination; the receiver sees it too")
    void destinationHeader() throws JMSException {
        Queue q = queue();
        Session s = session();
        TextMessage m = s.createTextMessage("x");
        s.createProducer(q).send(m);
        assertEquals(q, m.getJMSDestination());
        assertEquals(q, receive(s.createConsumer(q)).getJMSDestination());
    }

    @Test
    @DisplayName("3.4.2: after send, JMSDeliveryMode holds the producer's delivery mode")
    void deliveryModeHeaderFromProducer() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        TextMessage persistent = s.createTextMessage("p");
        p.send(persistent);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        TextMessage nonPersistent = s.createTextMessage("n");
        p.send(nonPersistent);
        assertEquals(DeliveryMode.PERSISTENT, persistent.getJMSDeliveryMode());
        assertEquals(DeliveryMode.NON_PERSISTENT, nonPersistent.getJMSDeliveryMode());
    }

    @Test
    @DisplayName("3.4.10: after send, JMSPriority holds the producer's priority (default 4)")
    void priorityHeaderFromProducer() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        TextMessage m1 = s.createTextMessage("a");
        p.send(m1);
        p.setPriority(8);
        TextMessage m2 = s.createTextMessage("b");
        p.send(m2);
        assertEquals(4, m1.getJMSPriority());
        assertEquals(8, m2.getJMSPriority());
    }

    @Test
    @DisplayName("7.4: delivery mode, priority and time to live given to send override the producer's")
    void sendParametersOverrideProducer() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        TextMessage m = s.createTextMessage("x");
        long before = System.currentTimeMillis();
        p.send(m, DeliveryMode.NON_PERSISTENT, 9, 60_000);
        assertEquals(DeliveryMode.NON_PERSISTENT, m.getJMSDeliveryMode());
        assertEquals(9, m.getJMSPriority());
        assertTrue(m.getJMSExpiration() >= before + 60_000);
        Message r = receive(s.createConsumer(q));
        assertEquals(DeliveryMode.NON_PERSISTENT, r.getJMSDeliveryMode());
        assertEquals(9, r.getJMSPriority());
        assertEquals(m.getJMSExpiration(), r.getJMSExpiration());
        assertEquals(DeliveryMode.PERSISTENT, p.getDeliveryMode(), "send parameters must not change the producer");
    }

    @Test
    @DisplayName("3.4.11: JMSPriority set on the message by the client is ignored and overwritten by send")
    void clientSetPriorityIgnored() throws JMSException {
        Queue q = queue();
        Session s = session();
        TextMessage m = s.createTextMessage("x");
        m.setJMSPriority(9);
        s.createProducer(q).send(m);
        assertEquals(4, m.getJMSPriority());
        assertEquals(4, receive(s.createConsumer(q)).getJMSPriority());
    }

    @Test
    @DisplayName("7.7 / 3.4.11: JMSDeliveryMode set on the message by the client is ignored")
    void clientSetDeliveryModeIgnored() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        TextMessage m = s.createTextMessage("x");
        m.setJMSDeliveryMode(DeliveryMode.PERSISTENT);
        p.send(m);
        assertEquals(DeliveryMode.NON_PERSISTENT, m.getJMSDeliveryMode());
        assertEquals(DeliveryMode.NON_PERSISTENT, receive(s.createConsumer(q)).getJMSDeliveryMode());
    }

    @Test
    @DisplayName("7.8 / 3.4.11: JMSExpiration set on the message by the client is ignored")
    void clientSetExpirationIgnored() throws JMSException {
        Queue q = queue();
        Session s = session();
        TextMessage m = s.createTextMessage("x");
        m.setJMSExpiration(System.currentTimeMillis() + 1000);
        s.createProducer(q).send(m);
        assertEquals(0L, m.getJMSExpiration());
        assertEquals(0L, receive(s.createConsumer(q)).getJMSExpiration());
    }

    @Test
    @DisplayName("3.4.11: JMSMessageID set on the message by the client is ignored and overwritten")
    void clientSetMessageIdIgnored() throws JMSException {
        Queue q = queue();
        Session s = session();
        TextMessage m = s.createTextMessage("x");
        m.setJMSMessageID("ID:client-chosen");
        s.createProducer(q).send(m);
        assertNotEquals("ID:client-chosen", m.getJMSMessageID());
        assertEquals(m.getJMSMessageID(), receive(s.createConsumer(q)).getJMSMessageID());
    }

    @Test
    @DisplayName("3.4.11: JMSDestination set on the message by the client is ignored")
    void clientSetDestinationIgnored() throws JMSException {
        Queue q = queue("real");
        Queue fake = queue("fake");
        Session s = session();
        TextMessage m = s.createTextMessage("x");
        m.setJMSDestination(fake);
        s.createProducer(q).send(m);
        assertEquals(q, m.getJMSDestination());
        assertEquals(q, receive(s.createConsumer(q)).getJMSDestination());
    }

    @Test
    @DisplayName("3.4.10: all ten priorities 0..9 are accepted and kept")
    void allPrioritiesAccepted() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        for (int prio = 0; prio <= 9; prio++) {
            TextMessage m = s.createTextMessage("p" + prio);
            p.send(m, DeliveryMode.NON_PERSISTENT, prio, 0);
            assertEquals(prio, m.getJMSPriority());
        }
        MessageConsumer consumer = s.createConsumer(q);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            Message m = receive(consumer);
            assertEquals("p" + m.getJMSPriority(), ((TextMessage) m).getText());
            seen.add(m.getJMSPriority());
        }
        assertEquals(10, seen.size());
    }

    @Test
    @DisplayName("3.9: the same message object can be sent several times, as distinct messages")
    void sameMessageSentTwice() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        TextMessage m = s.createTextMessage("twice");
        p.send(m);
        String firstId = m.getJMSMessageID();
        p.send(m);
        assertNotEquals(firstId, m.getJMSMessageID());
        MessageConsumer consumer = s.createConsumer(q);
        Message a = receive(consumer);
        Message b = receive(consumer);
        assertNotEquals(a.getJMSMessageID(), b.getJMSMessageID());
        assertEquals("twice", ((TextMessage) b).getText());
    }

    @Test
    @DisplayName("3.9: changing a message after sending it does not change the message sent")
    void modifyAfterSend() throws JMSException {
        Queue q = queue();
        Session s = session();
        TextMessage m = s.createTextMessage("original");
        m.setStringProperty("p", "before");
        s.createProducer(q).send(m);
        m.setText("changed");
        m.setStringProperty("p", "after");
        TextMessage r = (TextMessage) receive(s.createConsumer(q));
        assertEquals("original", r.getText());
        assertEquals("before", r.getStringProperty("p"));
    }

    @Test
    @DisplayName("3.12 / 6.2.4: a provider accepts and sends a message whose implementation is not its own")
    void foreignMessageAccepted() throws JMSException {
        Queue q = queue();
        Session s = session();
        TextMessage foreign = ForeignMessages.textMessage("foreign body");
        foreign.setStringProperty("origin", "elsewhere");
        foreign.setIntProperty("n", 7);
        foreign.setJMSCorrelationID("corr-1");
        foreign.setJMSType("foreign-type");
        s.createProducer(q).send(foreign);
        assertNotNull(foreign.getJMSMessageID(), "send must set JMSMessageID on the foreign message");
        TextMessage r = assertInstanceOf(TextMessage.class, receive(s.createConsumer(q)));
        assertEquals("foreign body", r.getText());
        assertEquals("elsewhere", r.getStringProperty("origin"));
        assertEquals(7, r.getIntProperty("n"));
        assertEquals("corr-1", r.getJMSCorrelationID());
        assertEquals("foreign-type", r.getJMSType());
    }

    @Test
    @DisplayName("7.1: closing a closed producer does not throw; a closed producer refuses send "
            + "(IllegalStateException)")
    void closedProducer() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        p.close();
        p.close();
        assertThrows(IllegalStateException.class, () -> p.send(s.createTextMessage("x")));
    }

    @Test
    @DisplayName("7.2: a send returns only once the message is with the provider: another connection receives it")
    void synchronousSendVisibleToOthers() throws JMSException {
        Queue q = queue();
        Connection sender = connection();
        Session s = sender.createSession();
        s.createProducer(q).send(s.createTextMessage("sent"));
        sender.close();
        assertReceivesText(session().createConsumer(q), "sent");
    }

    @Test
    @DisplayName("6.2.9.1: messages a producer sends to a queue arrive in the order sent")
    void orderOfOneProducer() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        for (String t : texts(30)) {
            p.send(s.createTextMessage(t));
        }
        assertEquals(java.util.List.of(texts(30)), receiveTexts(s.createConsumer(q), 30));
    }

    @Test
    @DisplayName("6.2.9.2: a later NON_PERSISTENT message never overtakes an earlier NON_PERSISTENT one of "
            + "the same priority")
    void orderWithinNonPersistent() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        for (String t : texts(30)) {
            p.send(s.createTextMessage(t));
        }
        assertEquals(java.util.List.of(texts(30)), receiveTexts(s.createConsumer(q), 30));
    }

    @Test
    @DisplayName("6.2.9.2: with mixed delivery modes, order holds within each delivery mode")
    void orderWithinEachDeliveryMode() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < 20; i++) {
            int mode = i % 2 == 0 ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT;
            p.send(s.createTextMessage((mode == DeliveryMode.PERSISTENT ? "p" : "n") + i), mode, 4, 0);
        }
        java.util.List<String> got = receiveTexts(s.createConsumer(q), 20);
        java.util.List<String> persistent =
                got.stream().filter(t -> t.startsWith("p")).toList();
        java.util.List<String> nonPersistent =
                got.stream().filter(t -> t.startsWith("n")).toList();
        assertEquals(java.util.List.of("p0", "p2", "p4", "p6", "p8", "p10", "p12", "p14", "p16", "p18"), persistent);
        assertEquals(java.util.List.of("n1", "n3", "n5", "n7", "n9", "n11", "n13", "n15", "n17", "n19"), nonPersistent);
    }
}
