package org.partita.tck.messages;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 3.11 and 3.11.3: MapMessage and its conversions. */
class MapMessageTest extends TckTest {

    @Test
    @DisplayName("3.11: every supported type set in a MapMessage reads back after delivery")
    void everyTypeRoundTrip() throws JMSException {
        Session s = session();
        MapMessage m = s.createMapMessage();
        m.setBoolean("bool", true);
        m.setByte("byte", (byte) 5);
        m.setShort("short", (short) -300);
        m.setChar("char", 'q');
        m.setInt("int", 70_000);
        m.setLong("long", 1L << 40);
        m.setFloat("float", 2.25f);
        m.setDouble("double", -0.125);
        m.setString("string", "text");
        m.setBytes("bytes", new byte[] {4, 5, 6});
        m.setObject("object", 12);
        MapMessage r = roundTrip(s, m);
        assertTrue(r.getBoolean("bool"));
        assertEquals((byte) 5, r.getByte("byte"));
        assertEquals((short) -300, r.getShort("short"));
        assertEquals('q', r.getChar("char"));
        assertEquals(70_000, r.getInt("int"));
        assertEquals(1L << 40, r.getLong("long"));
        assertEquals(2.25f, r.getFloat("float"));
        assertEquals(-0.125, r.getDouble("double"));
        assertEquals("text", r.getString("string"));
        assertArrayEquals(new byte[] {4, 5, 6}, r.getBytes("bytes"));
        assertEquals(12, r.getObject("object"));
    }

    @Test
    @DisplayName("MapMessage.getMapNames / itemExists: the names set, and only those")
    void mapNames() throws JMSException {
        Session s = session();
        MapMessage m = s.createMapMessage();
        m.setInt("a", 1);
        m.setString("b", "2");
        MapMessage r = roundTrip(s, m);
        Set<String> names = new HashSet<>();
        for (Object n : Collections.list(r.getMapNames())) {
            names.add((String) n);
        }
        assertEquals(Set.of("a", "b"), names);
        assertTrue(r.itemExists("a"));
        assertFalse(r.itemExists("c"));
    }

    @Test
    @DisplayName("MapMessage.setBytes(name, bytes, offset, length) stores the slice")
    void bytesSlice() throws JMSException {
        Session s = session();
        MapMessage m = s.createMapMessage();
        m.setBytes("slice", new byte[] {1, 2, 3, 4, 5}, 1, 3);
        assertArrayEquals(new byte[] {2, 3, 4}, ((MapMessage) roundTrip(s, m)).getBytes("slice"));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "3.12: Artemis MapMessage.setBytes keeps a reference to the "
                    + "caller's array instead of copying it, so later changes to the array change the message")
    @DisplayName("3.12: setBytes copies its input")
    void setBytesCopies() throws JMSException {
        MapMessage m = connection().createSession().createMapMessage();
        byte[] data = {1, 2};
        m.setBytes("b", data);
        data[0] = 9;
        assertArrayEquals(new byte[] {1, 2}, m.getBytes("b"));
    }

    @Test
    @DisplayName("3.11.3: a field that was not set reads as null (getString, getObject, getBytes)")
    void missingFieldIsNull() throws JMSException {
        MapMessage m = connection().createSession().createMapMessage();
        assertNull(m.getString("missing"));
        assertNull(m.getObject("missing"));
        assertNull(m.getBytes("missing"));
    }

    @Test
    @DisplayName("3.11.3: a missing field read as boolean is Boolean.valueOf(null), i.e. false")
    void missingFieldAsBoolean() throws JMSException {
        assertFalse(connection().createSession().createMapMessage().getBoolean("missing"));
    }

    @Test
    @DisplayName("3.11.3: a missing field read as int is Integer.valueOf(null): NumberFormatException")
    void missingFieldAsInt() throws JMSException {
        MapMessage m = connection().createSession().createMapMessage();
        assertThrows(NumberFormatException.class, () -> m.getInt("missing"));
    }

    @Test
    @DisplayName("3.11.3: a missing field read as char throws NullPointerException")
    void missingFieldAsChar() throws JMSException {
        MapMessage m = connection().createSession().createMapMessage();
        assertThrows(NullPointerException.class, () -> m.getChar("missing"));
    }

    @Test
    @DisplayName("3.11.3: widening conversions are supported (byte->short/int/long, int->long, float->double)")
    void wideningConversions() throws JMSException {
        Session s = session();
        MapMessage m = s.createMapMessage();
        m.setByte("b", (byte) 3);
        m.setInt("i", 40_000);
        m.setFloat("f", 0.5f);
        MapMessage r = roundTrip(s, m);
        assertEquals((short) 3, r.getShort("b"));
        assertEquals(3, r.getInt("b"));
        assertEquals(3L, r.getLong("b"));
        assertEquals(40_000L, r.getLong("i"));
        assertEquals(0.5, r.getDouble("f"));
    }

    @Test
    @DisplayName("3.11.3: every type converts to String, and String converts to every primitive via valueOf")
    void stringConversions() throws JMSException {
        Session s = session();
        MapMessage m = s.createMapMessage();
        m.setInt("i", 12);
        m.setBoolean("z", true);
        m.setString("si", "34");
        m.setString("sz", "TRUE");
        m.setString("sd", "2.5");
        MapMessage r = roundTrip(s, m);
        assertEquals("12", r.getString("i"));
        assertEquals("true", r.getString("z"));
        assertEquals(34, r.getInt("si"));
        assertEquals(34L, r.getLong("si"));
        assertTrue(r.getBoolean("sz"));
        assertEquals(2.5, r.getDouble("sd"));
    }

    @Test
    @DisplayName("3.11.3: a String that is not a number read as int throws NumberFormatException")
    void badStringToInt() throws JMSException {
        MapMessage m = connection().createSession().createMapMessage();
        m.setString("s", "forty-two");
        assertThrows(NumberFormatException.class, () -> m.getInt("s"));
    }

    @Test
    @DisplayName("3.11.3: narrowing and unrelated conversions throw MessageFormatException")
    void unsupportedConversions() throws JMSException {
        MapMessage m = connection().createSession().createMapMessage();
        m.setLong("long", 1);
        m.setBoolean("bool", true);
        m.setDouble("double", 1.0);
        m.setChar("char", 'c');
        m.setBytes("bytes", new byte[] {1});
        assertThrows(MessageFormatException.class, () -> m.getInt("long"));
        assertThrows(MessageFormatException.class, () -> m.getInt("bool"));
        assertThrows(MessageFormatException.class, () -> m.getFloat("double"));
        assertThrows(MessageFormatException.class, () -> m.getInt("char"));
        assertThrows(MessageFormatException.class, () -> m.getString("bytes"));
    }

    @Test
    @DisplayName("3.11.3: char converts only to String")
    void charToString() throws JMSException {
        MapMessage m = connection().createSession().createMapMessage();
        m.setChar("c", 'x');
        assertEquals("x", m.getString("c"));
    }

    @Test
    @DisplayName("MapMessage.setObject: an unsupported type is refused with MessageFormatException")
    void setObjectUnsupported() throws JMSException {
        MapMessage m = connection().createSession().createMapMessage();
        assertThrows(MessageFormatException.class, () -> m.setObject("list", new ArrayList<String>()));
    }

    @Test
    @DisplayName("MapMessage: setting an item with a null or empty name throws IllegalArgumentException")
    void invalidName() throws JMSException {
        MapMessage m = connection().createSession().createMapMessage();
        assertThrows(IllegalArgumentException.class, () -> m.setInt(null, 1));
        assertThrows(IllegalArgumentException.class, () -> m.setInt("", 1));
    }

    @Test
    @DisplayName("3.11.2: the body of a received MapMessage is read-only (MessageNotWriteableException)")
    void receivedReadOnly() throws JMSException {
        Session s = session();
        MapMessage r = roundTrip(s, s.createMapMessage());
        assertThrows(MessageNotWriteableException.class, () -> r.setInt("x", 1));
    }

    @Test
    @DisplayName("3.11.1: clearBody removes every item of a MapMessage")
    void clearBody() throws JMSException {
        Session s = session();
        MapMessage m = s.createMapMessage();
        m.setInt("x", 1);
        MapMessage r = roundTrip(s, m);
        r.clearBody();
        assertFalse(r.itemExists("x"));
        assertFalse(r.getMapNames().hasMoreElements());
        r.setInt("y", 2);
        assertEquals(2, r.getInt("y"));
    }

    @Test
    @DisplayName("3.12: a null String value is stored and read back as null")
    void nullStringValue() throws JMSException {
        Session s = session();
        MapMessage m = s.createMapMessage();
        m.setString("nothing", null);
        MapMessage r = roundTrip(s, m);
        assertTrue(r.itemExists("nothing"));
        assertNull(r.getString("nothing"));
    }
}
