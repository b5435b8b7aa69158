package org.partita.tck.browsers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 4.1.6: queue browsers. */
class QueueBrowserTest extends TckTest {

    private static List<String> browse(QueueBrowser browser) throws JMSException {
        List<String> texts = new ArrayList<>();
        Enumeration<?> e = browser.getEnumeration();
        while (e.hasMoreElements()) {
            texts.add(((TextMessage) e.nextElement()).getText());
        }
        return texts;
    }

    /** Browses until {@code n} messages show (a provider may take a moment to make sends visible). */
    private static List<String> browseUntil(QueueBrowser browser, int n) throws JMSException {
        long deadline = System.currentTimeMillis() + RECEIVE_TIMEOUT;
        List<String> texts = browse(browser);
        while (texts.size() < n && System.currentTimeMillis() < deadline) {
            sleep(50);
            texts = browse(browser);
        }
        return texts;
    }

    @Test
    @DisplayName("4.1.6: a browser shows the messages on a queue without removing them")
    void browseDoesNotRemove() throws JMSException {
        Queue q = queue();
        send(q, "a", "b", "c");
        Session s = session();
        assertEquals(Set.of("a", "b", "c"), new HashSet<>(browseUntil(s.createBrowser(q), 3)));
        assertEquals(List.of("a", "b", "c"), receiveTexts(s.createConsumer(q), 3));
    }

    @Test
    @DisplayName("4.1.6: browsing an empty queue gives an empty enumeration")
    void browseEmpty() throws JMSException {
        QueueBrowser browser = session().createBrowser(queue());
        assertFalse(browser.getEnumeration().hasMoreElements());
    }

    @Test
    @DisplayName("4.1.6: a browser with a selector shows only matching messages")
    void browseWithSelector() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < 6; i++) {
            TextMessage m = s.createTextMessage("m" + i);
            m.setBooleanProperty("even", i % 2 == 0);
            p.send(m);
        }
        QueueBrowser all = s.createBrowser(q);
        browseUntil(all, 6);
        QueueBrowser even = s.createBrowser(q, "even = TRUE");
        assertEquals(Set.of("m0", "m2", "m4"), new HashSet<>(browse(even)));
    }

    @Test
    @DisplayName("QueueBrowser: getQueue and getMessageSelector return what the browser was created with")
    void browserAccessors() throws JMSException {
        Queue q = queue();
        Session s = session();
        QueueBrowser b = s.createBrowser(q, "x = 1");
        assertEquals(q, b.getQueue());
        assertEquals("x = 1", b.getMessageSelector());
        String none = s.createBrowser(q).getMessageSelector();
        assertTrue(none == null || none.isEmpty());
    }

    @Test
    @DisplayName("4.1.6: browsed messages carry their headers and properties")
    void browsedMessagesComplete() throws JMSException {
        Queue q = queue();
        Session s = session();
        TextMessage sent = s.createTextMessage("full");
        sent.setStringProperty("p", "v");
        sent.setJMSCorrelationID("c");
        s.createProducer(q).send(sent);
        QueueBrowser b = s.createBrowser(q);
        browseUntil(b, 1);
        Message browsed = (Message) b.getEnumeration().nextElement();
        assertEquals(sent.getJMSMessageID(), browsed.getJMSMessageID());
        assertEquals("v", browsed.getStringProperty("p"));
        assertEquals("c", browsed.getJMSCorrelationID());
        assertEquals(q, browsed.getJMSDestination());
    }

    @Test
    @DisplayName("4.1.6: a message that was consumed no longer shows in the browser")
    void consumedNotBrowsed() throws JMSException {
        Queue q = queue();
        send(q, "taken", "left");
        Session s = session();
        jakarta.jms.MessageConsumer consumer = s.createConsumer(q);
        assertReceivesText(consumer, "taken");
        consumer.close();
        QueueBrowser b = s.createBrowser(q);
        assertEquals(List.of("left"), browseUntil(b, 1));
    }

    @Test
    @DisplayName("4.1.6: each getEnumeration call browses the queue anew")
    void repeatedEnumerations() throws JMSException {
        Queue q = queue();
        send(q, "one");
        Session s = session();
        QueueBrowser b = s.createBrowser(q);
        assertEquals(List.of("one"), browseUntil(b, 1));
        send(q, "two");
        assertEquals(Set.of("one", "two"), new HashSet<>(browseUntil(b, 2)));
    }

    @Test
    @DisplayName("4.1.6: a message is not shown by a browser before its delivery time")
    void delayedNotBrowsed() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setDeliveryDelay(3000);
        p.send(s.createTextMessage("later"));
        s.createProducer(q).send(s.createTextMessage("now"));
        QueueBrowser b = s.createBrowser(q);
        assertEquals(List.of("now"), browseUntil(b, 1));
        sleep(ABSENCE_TIMEOUT);
        assertEquals(List.of("now"), browse(b));
    }

    @Test
    @DisplayName("3.4.7 / 3.5.11: browsing is not a delivery: a browsed message is then delivered as new")
    void browsingIsNotDelivery() throws JMSException {
        Queue q = queue();
        send(q, "browse first");
        Session s = session();
        browseUntil(s.createBrowser(q), 1);
        Message m = receive(s.createConsumer(q));
        assertFalse(m.getJMSRedelivered());
        assertEquals(1, m.getIntProperty("JMSXDeliveryCount"));
    }

    @Test
    @DisplayName("4.1.6: a browser shows all of a larger backlog")
    void browseManyMessages() throws JMSException {
        Queue q = queue();
        send(q, texts(50));
        assertEquals(50, browseUntil(session().createBrowser(q), 50).size());
    }

    @Test
    @DisplayName("Session.createBrowser: a null queue throws InvalidDestinationException")
    void nullQueue() throws JMSException {
        Session s = session();
        assertThrows(InvalidDestinationException.class, () -> s.createBrowser(null));
    }

    @Test
    @DisplayName("Session.createBrowser: an invalid selector throws InvalidSelectorException")
    void invalidSelector() throws JMSException {
        Session s = session();
        Queue q = queue();
        assertThrows(InvalidSelectorException.class, () -> s.createBrowser(q, "a = = 'b'"));
    }

    @Test
    @DisplayName("6.2.15: a browser of a closed session throws IllegalStateException")
    void browserOfClosedSession() throws JMSException {
        Session s = session();
        QueueBrowser b = s.createBrowser(queue());
        s.close();
        assertThrows(IllegalStateException.class, b::getEnumeration);
    }

    @Test
    @DisplayName("4.1.6: the owner of a temporary queue can browse it")
    void browseTemporaryQueue() throws JMSException {
        Session s = session();
        TemporaryQueue tq = s.createTemporaryQueue();
        s.createProducer(tq).send(s.createTextMessage("temp"));
        assertEquals(List.of("temp"), browseUntil(s.createBrowser(tq), 1));
    }

    @Test
    @DisplayName("4.1.6: browsing twice leaves every message for the consumers; a drained queue browses empty")
    void browseLeavesQueueIntact() throws JMSException {
        Queue q = queue();
        send(q, texts(3));
        Session s = session();
        QueueBrowser b = s.createBrowser(q);
        browseUntil(b, 3);
        browse(b);
        assertEquals(List.of(texts(3)), receiveTexts(s.createConsumer(q), 3));
        assertNull(s.createConsumer(q).receive(ABSENCE_TIMEOUT));
        b.close();
        assertEquals(Collections.emptyList(), browse(s.createBrowser(q)));
    }
}
