package org.partita.tck.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 3.11: TextMessage, ObjectMessage and the plain Message body. */
class TextAndObjectMessageTest extends TckTest {

    /** A serializable application type (known to both the sender and the receiver here). */
    record Order(String id, int quantity, List<String> lines) implements Serializable {}

    @Test
    @DisplayName("3.11: a TextMessage arrives as a TextMessage with the same text")
    void textRoundTrip() throws JMSException {
        Session s = session();
        TextMessage r = roundTrip(s, s.createTextMessage("hello, world"));
        assertEquals("hello, world", r.getText());
    }

    @Test
    @DisplayName("3.11: text outside ASCII (accents, CJK, emoji) arrives unchanged")
    void unicodeText() throws JMSException {
        Session s = session();
        String text = "Grüße — 你好 — \uD83C\uDFB5 — \u0000 nul";
        assertEquals(text, ((TextMessage) roundTrip(s, s.createTextMessage(text))).getText());
    }

    @Test
    @DisplayName("3.12: a null text is allowed and arrives as null")
    void nullText() throws JMSException {
        Session s = session();
        TextMessage m = s.createTextMessage();
        m.setText(null);
        assertNull(((TextMessage) roundTrip(s, m)).getText());
    }

    @Test
    @DisplayName("3.11: an empty text arrives as an empty string")
    void emptyText() throws JMSException {
        Session s = session();
        assertEquals("", ((TextMessage) roundTrip(s, s.createTextMessage(""))).getText());
    }

    @Test
    @DisplayName("3.11: a large (1 MiB) text arrives whole")
    void largeText() throws JMSException {
        Session s = session();
        String big = "0123456789abcdef".repeat(64 * 1024);
        assertEquals(big, ((TextMessage) roundTrip(s, s.createTextMessage(big))).getText());
    }

    @Test
    @DisplayName("3.11.2: the body of a received TextMessage is read-only (MessageNotWriteableException)")
    void receivedTextReadOnly() throws JMSException {
        Session s = session();
        TextMessage r = roundTrip(s, s.createTextMessage("fixed"));
        assertThrows(MessageNotWriteableException.class, () -> r.setText("changed"));
    }

    @Test
    @DisplayName("3.10 / 3.11.2: after clearBody a received TextMessage is writable and empty")
    void clearBodyMakesWritable() throws JMSException {
        Session s = session();
        TextMessage r = roundTrip(s, s.createTextMessage("fixed"));
        r.clearBody();
        assertNull(r.getText());
        r.setText("now mine");
        assertEquals("now mine", r.getText());
    }

    @Test
    @DisplayName("3.11.1: clearBody does not clear properties")
    void clearBodyKeepsProperties() throws JMSException {
        TextMessage m = connection().createSession().createTextMessage("body");
        m.setStringProperty("keep", "me");
        m.clearBody();
        assertNull(m.getText());
        assertEquals("me", m.getStringProperty("keep"));
    }

    @Test
    @DisplayName("3.11: an ObjectMessage with a collection arrives equal")
    void objectCollectionRoundTrip() throws JMSException {
        Session s = session();
        ArrayList<Object> list = new ArrayList<>(List.of("a", 1, 2.5, true));
        ObjectMessage r = roundTrip(s, s.createObjectMessage(list));
        assertEquals(list, r.getObject());
    }

    @Test
    @DisplayName("3.11: an ObjectMessage with an application type arrives equal")
    void objectApplicationTypeRoundTrip() throws JMSException {
        Session s = session();
        Order order = new Order("o-1", 3, List.of("x", "y"));
        ObjectMessage r = roundTrip(s, s.createObjectMessage(order));
        assertEquals(order, r.getObject());
    }

    @Test
    @DisplayName("3.12: an ObjectMessage with a null object arrives with null")
    void objectNullRoundTrip() throws JMSException {
        Session s = session();
        ObjectMessage m = s.createObjectMessage();
        assertNull(((ObjectMessage) roundTrip(s, m)).getObject());
    }

    @Test
    @DisplayName("3.12: setObject copies its input: changing the object afterwards does not change the message")
    void setObjectCopies() throws JMSException {
        Session s = session();
        HashMap<String, String> map = new HashMap<>(Map.of("k", "v"));
        ObjectMessage m = s.createObjectMessage(map);
        map.put("k", "changed");
        assertEquals(Map.of("k", "v"), m.getObject());
        assertEquals(Map.of("k", "v"), ((ObjectMessage) roundTrip(s, m)).getObject());
    }

    @Test
    @DisplayName("3.12: getObject returns a copy: changing it does not change the message")
    void getObjectCopies() throws JMSException {
        Session s = session();
        ObjectMessage r = roundTrip(s, s.createObjectMessage(new ArrayList<>(List.of("a"))));
        @SuppressWarnings("unchecked")
        List<String> first = (List<String>) r.getObject();
        first.add("b");
        assertEquals(List.of("a"), r.getObject());
        assertNotSame(first, r.getObject());
    }

    @Test
    @DisplayName("3.11.2: the body of a received ObjectMessage is read-only (MessageNotWriteableException)")
    void receivedObjectReadOnly() throws JMSException {
        Session s = session();
        ObjectMessage r = roundTrip(s, s.createObjectMessage("x"));
        assertThrows(MessageNotWriteableException.class, () -> r.setObject("y"));
    }

    @Test
    @DisplayName("3.11.4: a message keeps its type between clients: a plain Message stays a plain Message")
    void plainMessageRoundTrip() throws JMSException {
        Session s = session();
        Message m = s.createMessage();
        m.setStringProperty("only", "properties");
        Message r = roundTrip(s, m);
        assertEquals("properties", r.getStringProperty("only"));
        assertEquals(false, r instanceof TextMessage || r instanceof ObjectMessage);
    }

    @Test
    @DisplayName("3.11.4: each message type arrives as the same type")
    void typesPreserved() throws JMSException {
        Session s = session();
        assertInstanceOf(jakarta.jms.BytesMessage.class, roundTrip(s, s.createBytesMessage()));
        assertInstanceOf(jakarta.jms.MapMessage.class, roundTrip(s, s.createMapMessage()));
        assertInstanceOf(jakarta.jms.StreamMessage.class, roundTrip(s, s.createStreamMessage()));
        assertInstanceOf(ObjectMessage.class, roundTrip(s, s.createObjectMessage()));
        assertInstanceOf(TextMessage.class, roundTrip(s, s.createTextMessage()));
    }
}
