package org.partita.tck.messages;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.io.Serializable;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 3.4 (client-set header fields) and Message.getBody / isBodyAssignableTo. */
class HeadersAndBodyAccessTest extends TckTest {

    @Test
    @DisplayName("3.4.5: an application JMSCorrelationID arrives unchanged")
    void correlationId() throws JMSException {
        Session s = session();
        Message m = s.createTextMessage("x");
        m.setJMSCorrelationID("order-17");
        assertEquals("order-17", roundTrip(s, m).getJMSCorrelationID());
    }

    @Test
    @DisplayName("3.4.5: a JMSCorrelationID holding another message's JMSMessageID arrives unchanged")
    void correlationIdFromMessageId() throws JMSException {
        Session s = session();
        Message first = roundTrip(s, s.createTextMessage("request"));
        Message reply = s.createTextMessage("reply");
        reply.setJMSCorrelationID(first.getJMSMessageID());
        assertEquals(first.getJMSMessageID(), roundTrip(s, reply).getJMSCorrelationID());
    }

    @Test
    @DisplayName("3.4.5: JMSCorrelationID is null when not set")
    void correlationIdDefaultsToNull() throws JMSException {
        Session s = session();
        assertNull(roundTrip(s, s.createTextMessage("x")).getJMSCorrelationID());
    }

    @Test
    @DisplayName("3.4.6: a JMSReplyTo queue arrives and can be used to send to that queue")
    void replyToQueue() throws JMSException {
        Session s = session();
        Queue replies = queue("replies");
        Message m = s.createTextMessage("x");
        m.setJMSReplyTo(replies);
        Message r = roundTrip(s, m);
        assertEquals(replies, r.getJMSReplyTo());
        s.createProducer(r.getJMSReplyTo()).send(s.createTextMessage("answer"));
        assertReceivesText(s.createConsumer(replies), "answer");
    }

    @Test
    @DisplayName("3.4.6: a JMSReplyTo topic arrives as a topic")
    void replyToTopic() throws JMSException {
        Session s = session();
        var t = topic();
        Message m = s.createTextMessage("x");
        m.setJMSReplyTo(t);
        assertEquals(t, roundTrip(s, m).getJMSReplyTo());
    }

    @Test
    @DisplayName("3.4.6: JMSReplyTo is null when not set")
    void replyToDefaultsToNull() throws JMSException {
        Session s = session();
        assertNull(roundTrip(s, s.createTextMessage("x")).getJMSReplyTo());
    }

    @Test
    @DisplayName("3.4.8: JMSType arrives unchanged")
    void type() throws JMSException {
        Session s = session();
        Message m = s.createTextMessage("x");
        m.setJMSType("car");
        assertEquals("car", roundTrip(s, m).getJMSType());
    }

    @Test
    @DisplayName("3.4.9: with no time to live, JMSExpiration is 0 on send and on receipt")
    void noExpiration() throws JMSException {
        Session s = session();
        Message m = s.createTextMessage("x");
        Message r = roundTrip(s, m);
        assertEquals(0L, m.getJMSExpiration());
        assertEquals(0L, r.getJMSExpiration());
    }

    @Test
    @DisplayName("3.4.7: JMSRedelivered has no meaning on send: a fresh message arrives not redelivered")
    void redeliveredIgnoredOnSend() throws JMSException {
        Session s = session();
        Message m = s.createTextMessage("x");
        m.setJMSRedelivered(true);
        assertFalse(roundTrip(s, m).getJMSRedelivered());
    }

    @Test
    @DisplayName("Message.getBody: a TextMessage body is returned as String")
    void getBodyText() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, s.createTextMessage("text body"));
        assertEquals("text body", r.getBody(String.class));
        assertEquals("text body", r.getBody(Object.class));
        assertTrue(r.isBodyAssignableTo(String.class));
        assertFalse(r.isBodyAssignableTo(Integer.class));
    }

    @Test
    @DisplayName("Message.getBody: asking for a type the body cannot be assigned to throws MessageFormatException")
    void getBodyWrongType() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, s.createTextMessage("text body"));
        assertThrows(MessageFormatException.class, () -> r.getBody(Integer.class));
    }

    @Test
    @DisplayName("Message.getBody: a BytesMessage body is returned as byte[]")
    void getBodyBytes() throws JMSException {
        Session s = session();
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(new byte[] {1, 2, 3});
        Message r = roundTrip(s, m);
        assertArrayEquals(new byte[] {1, 2, 3}, r.getBody(byte[].class));
        assertTrue(r.isBodyAssignableTo(byte[].class));
    }

    @Test
    @DisplayName("Message.getBody: a MapMessage body is returned as Map")
    void getBodyMap() throws JMSException {
        Session s = session();
        MapMessage m = s.createMapMessage();
        m.setInt("a", 1);
        m.setString("b", "two");
        Message r = roundTrip(s, m);
        @SuppressWarnings("unchecked")
        Map<String, Object> body = r.getBody(Map.class);
        assertEquals(Map.of("a", 1, "b", "two"), body);
        assertTrue(r.isBodyAssignableTo(Map.class));
    }

    @Test
    @DisplayName("Message.getBody: an ObjectMessage body is returned as its Serializable")
    void getBodyObject() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, s.createObjectMessage(1234L));
        assertEquals(1234L, r.getBody(Serializable.class));
        assertEquals(1234L, r.getBody(Long.class));
        assertTrue(r.isBodyAssignableTo(Long.class));
        assertFalse(r.isBodyAssignableTo(String.class));
    }

    @Test
    @DisplayName("Message.getBody / isBodyAssignableTo: a StreamMessage body cannot be returned")
    void getBodyStream() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeInt(1);
        Message r = roundTrip(s, m);
        assertFalse(r.isBodyAssignableTo(Object.class));
        assertThrows(MessageFormatException.class, () -> r.getBody(Object.class));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "Message.getBody (3.1 API): for a plain Message, which has "
                    + "no body, Artemis throws MessageFormatException (an internal NullPointerException) instead of "
                    + "returning null")
    @DisplayName("Message.getBody: a plain Message has no body: getBody returns null, isBodyAssignableTo is true")
    void getBodyPlainMessage() throws JMSException {
        Session s = session();
        Message plain = roundTrip(s, s.createMessage());
        assertTrue(plain.isBodyAssignableTo(String.class));
        assertNull(plain.getBody(String.class));
    }

    @Test
    @DisplayName("Message.getBody: a TextMessage without text returns null; isBodyAssignableTo is true for any type")
    void getBodyEmptyText() throws JMSException {
        Session s = session();
        TextMessage emptyText = roundTrip(s, s.createTextMessage());
        assertNull(emptyText.getBody(String.class));
        assertTrue(emptyText.isBodyAssignableTo(Integer.class));
    }

    @Test
    @DisplayName("Message.getBody: an ObjectMessage without object returns null")
    void getBodyEmptyObject() throws JMSException {
        Session s = session();
        ObjectMessage emptyObject = roundTrip(s, s.createObjectMessage());
        assertNull(emptyObject.getBody(Serializable.class));
        assertTrue(emptyObject.isBodyAssignableTo(String.class));
    }
}
