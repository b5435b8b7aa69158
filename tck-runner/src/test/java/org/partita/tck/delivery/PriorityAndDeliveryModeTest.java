package org.partita.tck.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 3.4.2, 3.4.10, 6.2.9.2 and 7.7: priority and delivery mode. */
class PriorityAndDeliveryModeTest extends TckTest {

    @Test
    @DisplayName("3.4.10: expedited messages (priority 5-9) waiting on a queue are delivered ahead of normal ones "
            + "(0-4)")
    void expeditedBeforeNormal() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(q);
        int[] priorities = {0, 4, 9, 1, 5, 3, 7, 2, 8, 6};
        for (int prio : priorities) {
            p.send(s.createTextMessage("p" + prio), DeliveryMode.PERSISTENT, prio, 0);
        }
        MessageConsumer consumer = session().createConsumer(q);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < priorities.length; i++) {
            order.add(receive(consumer).getJMSPriority());
        }
        List<Integer> firstFive = order.subList(0, 5);
        assertTrue(firstFive.stream().allMatch(prio -> prio >= 5), "delivery order by priority: " + order);
    }

    @Test
    @DisplayName("3.4.10 / 6.2.9.2: a high-priority message jumps ahead of earlier low-priority messages")
    void highPriorityJumpsAhead() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < 5; i++) {
            p.send(s.createTextMessage("low" + i), DeliveryMode.PERSISTENT, 1, 0);
        }
        p.send(s.createTextMessage("urgent"), DeliveryMode.PERSISTENT, 9, 0);
        assertReceivesText(session().createConsumer(q), "urgent");
    }

    @Test
    @DisplayName("6.2.9.2: messages of the same priority keep their order, also when priorities are mixed")
    void samePriorityKeepsOrder() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < 12; i++) {
            int prio = i % 2 == 0 ? 7 : 2;
            p.send(s.createTextMessage(prio + ":" + i), DeliveryMode.PERSISTENT, prio, 0);
        }
        List<String> got = receiveTexts(session().createConsumer(q), 12);
        assertEquals(
                List.of("7:0", "7:2", "7:4", "7:6", "7:8", "7:10"),
                got.stream().filter(t -> t.startsWith("7:")).toList());
        assertEquals(
                List.of("2:1", "2:3", "2:5", "2:7", "2:9", "2:11"),
                got.stream().filter(t -> t.startsWith("2:")).toList());
    }

    @Test
    @DisplayName("3.4.10: the priority set on the producer is the JMSPriority the receiver sees")
    void producerPriorityReceived() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setPriority(0);
        p.send(s.createTextMessage("lowest"));
        assertEquals(0, receive(s.createConsumer(q)).getJMSPriority());
    }

    @Test
    @DisplayName("3.4.2 / 7.7: a PERSISTENT message arrives with JMSDeliveryMode PERSISTENT")
    void persistentReceived() throws JMSException {
        Queue q = queue();
        send(q, "persistent");
        assertEquals(
                DeliveryMode.PERSISTENT, receive(session().createConsumer(q)).getJMSDeliveryMode());
    }

    @Test
    @DisplayName("3.4.2 / 7.7: a NON_PERSISTENT message arrives with JMSDeliveryMode NON_PERSISTENT")
    void nonPersistentReceived() throws JMSException {
        Queue q = queue();
        sendNonPersistent(q, "fast");
        Message m = receive(session().createConsumer(q));
        assertEquals(DeliveryMode.NON_PERSISTENT, m.getJMSDeliveryMode());
        assertEquals("fast", ((TextMessage) m).getText());
    }

    @Test
    @DisplayName("7.7: NON_PERSISTENT messages are delivered at most once: each arrives once, no duplicates")
    void nonPersistentAtMostOnce() throws JMSException {
        Queue q = queue();
        sendNonPersistent(q, texts(30));
        MessageConsumer consumer = session().createConsumer(q);
        assertEquals(List.of(texts(30)), receiveTexts(consumer, 30));
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("7.7 / 9.1: PERSISTENT messages on a queue are delivered once and only once")
    void persistentOnceAndOnlyOnce() throws JMSException {
        Queue q = queue();
        send(q, texts(30));
        MessageConsumer consumer = session().createConsumer(q);
        assertEquals(List.of(texts(30)), receiveTexts(consumer, 30));
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("9.1: PERSISTENT and NON_PERSISTENT messages can be sent to the same destination")
    void mixedModesSameDestination() throws JMSException {
        Queue q = queue();
        send(q, "p");
        sendNonPersistent(q, "n");
        List<String> got = receiveTexts(session().createConsumer(q), 2);
        assertTrue(got.containsAll(List.of("p", "n")), got.toString());
    }

    @Test
    @DisplayName("3.4.10: priority is kept for NON_PERSISTENT messages too")
    void priorityNonPersistent() throws JMSException {
        Queue q = queue();
        Session s = session();
        s.createProducer(q).send(s.createTextMessage("x"), DeliveryMode.NON_PERSISTENT, 8, 0);
        assertEquals(8, receive(s.createConsumer(q)).getJMSPriority());
    }
}
