package org.partita.jms.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.ObjectMessage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.jms.destination.PartitaQueue;
import org.partita.protocol.WireMessage;

class ObjectMessageTest {

    record Point(int x, int y) implements Serializable {}

    /** Serializable on its face, but holds something that is not. */
    static final class Broken implements Serializable {
        @SuppressWarnings("unused")
        private final Object payload = new Object();
    }

    @Test
    void getObjectReturnsAFreshEqualCopy() throws JMSException {
        Point p = new Point(1, 2);
        PartitaObjectMessage m = new PartitaObjectMessage(p);
        Serializable first = m.getObject();
        Serializable second = m.getObject();
        assertEquals(p, first);
        assertNotSame(p, first);
        assertNotSame(first, second);
    }

    @Test
    void objectIsSerializedWhenSet() throws JMSException {
        ArrayList<String> list = new ArrayList<>(List.of("a"));
        PartitaObjectMessage m = new PartitaObjectMessage();
        m.setObject(list);
        list.add("b");
        assertEquals(List.of("a"), m.getObject());
    }

    @Test
    void unserializableObjectIsAMessageFormatException() {
        PartitaObjectMessage m = new PartitaObjectMessage();
        MessageFormatException e = assertThrows(MessageFormatException.class, () -> m.setObject(new Broken()));
        assertTrue(e.getLinkedException() != null);
        assertThrows(MessageFormatException.class, () -> new PartitaObjectMessage(new Broken()));
    }

    @Test
    void nullObject() throws JMSException {
        PartitaObjectMessage m = new PartitaObjectMessage(new Point(1, 1));
        m.setObject(null);
        assertNull(m.getObject());
        assertNull(m.getBody(Point.class));
        assertNull(((ObjectMessage) TestMessages.received(m)).getObject());
    }

    @Test
    void receivedObjectIsReadOnlyUntilClearBody() throws JMSException {
        ObjectMessage m = (ObjectMessage) TestMessages.received(new PartitaObjectMessage(new Point(3, 4)));
        assertEquals(new Point(3, 4), m.getObject());
        assertThrows(MessageNotWriteableException.class, () -> m.setObject("x"));
        m.clearBody();
        assertNull(m.getObject());
        m.setObject("x");
        assertEquals("x", m.getObject());
    }

    @Test
    void getBodyAcceptsTheObjectsTypeAndSupertypes() throws JMSException {
        PartitaObjectMessage m = new PartitaObjectMessage(new Point(5, 6));
        assertEquals(new Point(5, 6), m.getBody(Point.class));
        assertEquals(new Point(5, 6), m.getBody(Serializable.class));
        assertEquals(new Point(5, 6), m.getBody(Record.class));
        assertTrue(m.isBodyAssignableTo(Point.class));
        assertTrue(m.isBodyAssignableTo(Object.class));
        assertFalse(m.isBodyAssignableTo(String.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(String.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(Map.class));
    }

    @Test
    void undeserializableBodyIsAMessageFormatException() {
        WireMessage garbage = new WireMessage(
                "ID:1",
                0,
                null,
                null,
                new PartitaQueue("q").encode(),
                null,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                Map.of(),
                WireMessage.BODY_OBJECT,
                new byte[] {1, 2, 3});
        ObjectMessage m = (ObjectMessage) MessageFactory.fromWire(garbage, 1);
        assertThrows(MessageFormatException.class, m::getObject);
        assertThrows(MessageFormatException.class, () -> m.getBody(Serializable.class));
        assertThrows(MessageFormatException.class, () -> m.isBodyAssignableTo(Serializable.class));
    }

    @Test
    void receivedObjectMessageIsAnObjectMessage() throws JMSException {
        assertInstanceOf(PartitaObjectMessage.class, TestMessages.received(new PartitaObjectMessage("s")));
    }
}
