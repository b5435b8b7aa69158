package org.partita.jms.message;

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
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.partita.jms.message.ConversionTable.Kind;

/** MapMessage: the conversion table of spec section 3.11.3 and the item rules. */
class MapMessageTest {

    static void set(MapMessage m, Kind kind, String name, Object value) throws JMSException {
        switch (kind) {
            case BOOLEAN -> m.setBoolean(name, (Boolean) value);
            case BYTE -> m.setByte(name, (Byte) value);
            case SHORT -> m.setShort(name, (Short) value);
            case CHAR -> m.setChar(name, (Character) value);
            case INT -> m.setInt(name, (Integer) value);
            case LONG -> m.setLong(name, (Long) value);
            case FLOAT -> m.setFloat(name, (Float) value);
            case DOUBLE -> m.setDouble(name, (Double) value);
            case STRING -> m.setString(name, (String) value);
            case BYTES -> m.setBytes(name, (byte[]) value);
        }
    }

    static Object get(MapMessage m, Kind kind, String name) throws JMSException {
        return switch (kind) {
            case BOOLEAN -> m.getBoolean(name);
            case BYTE -> m.getByte(name);
            case SHORT -> m.getShort(name);
            case CHAR -> m.getChar(name);
            case INT -> m.getInt(name);
            case LONG -> m.getLong(name);
            case FLOAT -> m.getFloat(name);
            case DOUBLE -> m.getDouble(name);
            case STRING -> m.getString(name);
            case BYTES -> m.getBytes(name);
        };
    }

    static void assertCell(MapMessage m, Kind from, Kind to) throws JMSException {
        Object expected = ConversionTable.expected(from, to);
        if (expected == ConversionTable.FAILS) {
            assertThrows(MessageFormatException.class, () -> get(m, to, "v"));
        } else if (expected instanceof byte[] bytes) {
            assertArrayEquals(bytes, (byte[]) get(m, to, "v"));
        } else {
            assertEquals(expected, get(m, to, "v"));
        }
    }

    @ParameterizedTest(name = "{0} read as {1}")
    @MethodSource("org.partita.jms.message.ConversionTable#bodyCells")
    void conversionTableCell(Kind from, Kind to) throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        set(m, from, "v", ConversionTable.sample(from));
        assertCell(m, from, to);
    }

    @ParameterizedTest(name = "{0} read as {1} after receipt")
    @MethodSource("org.partita.jms.message.ConversionTable#bodyCells")
    void conversionTableCellSurvivesTheWire(Kind from, Kind to) throws JMSException {
        PartitaMapMessage sent = new PartitaMapMessage();
        set(sent, from, "v", ConversionTable.sample(from));
        assertCell((MapMessage) TestMessages.received(sent), from, to);
    }

    @Test
    void missingItemBehavesLikeValueOfNull() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        assertNull(m.getString("absent"));
        assertNull(m.getObject("absent"));
        assertNull(m.getBytes("absent"));
        assertFalse(m.getBoolean("absent"));
        assertThrows(NumberFormatException.class, () -> m.getByte("absent"));
        assertThrows(NumberFormatException.class, () -> m.getShort("absent"));
        assertThrows(NumberFormatException.class, () -> m.getInt("absent"));
        assertThrows(NumberFormatException.class, () -> m.getLong("absent"));
        assertThrows(NullPointerException.class, () -> m.getFloat("absent"));
        assertThrows(NullPointerException.class, () -> m.getDouble("absent"));
        assertThrows(NullPointerException.class, () -> m.getChar("absent"));
    }

    @Test
    void unparsableStringIsANumberFormatException() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        m.setString("s", "abc");
        assertThrows(NumberFormatException.class, () -> m.getInt("s"));
        assertThrows(NumberFormatException.class, () -> m.getDouble("s"));
        assertFalse(m.getBoolean("s"));
    }

    @Test
    void itemExistsAndMapNames() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        assertFalse(m.getMapNames().hasMoreElements());
        m.setInt("b", 1);
        m.setString("a", null);
        m.setBytes("c", null);
        assertTrue(m.itemExists("a"));
        assertTrue(m.itemExists("b"));
        assertTrue(m.itemExists("c"));
        assertFalse(m.itemExists("d"));
        assertEquals(List.of("b", "a", "c"), Collections.list(m.getMapNames()));
        assertNull(m.getBytes("c"));
    }

    @Test
    void nameMayBeAnyNonEmptyString() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        m.setInt("not an identifier!", 1);
        m.setInt("AND", 2);
        assertEquals(1, m.getInt("not an identifier!"));
        assertEquals(2, m.getInt("AND"));
    }

    @Test
    void nullOrEmptyNameIsRejectedByEverySetter() {
        PartitaMapMessage m = new PartitaMapMessage();
        for (String name : new String[] {null, ""}) {
            assertThrows(IllegalArgumentException.class, () -> m.setBoolean(name, true));
            assertThrows(IllegalArgumentException.class, () -> m.setByte(name, (byte) 1));
            assertThrows(IllegalArgumentException.class, () -> m.setShort(name, (short) 1));
            assertThrows(IllegalArgumentException.class, () -> m.setChar(name, 'c'));
            assertThrows(IllegalArgumentException.class, () -> m.setInt(name, 1));
            assertThrows(IllegalArgumentException.class, () -> m.setLong(name, 1));
            assertThrows(IllegalArgumentException.class, () -> m.setFloat(name, 1));
            assertThrows(IllegalArgumentException.class, () -> m.setDouble(name, 1));
            assertThrows(IllegalArgumentException.class, () -> m.setString(name, "x"));
            assertThrows(IllegalArgumentException.class, () -> m.setBytes(name, new byte[1]));
            assertThrows(IllegalArgumentException.class, () -> m.setBytes(name, new byte[1], 0, 1));
            assertThrows(IllegalArgumentException.class, () -> m.setObject(name, 1));
        }
        assertFalse(m.getMapNames().hasMoreElements());
    }

    @Test
    void byteArraysAreCopiedInAndOut() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        byte[] value = {1, 2, 3};
        m.setBytes("b", value);
        value[0] = 9;
        byte[] read = m.getBytes("b");
        assertArrayEquals(new byte[] {1, 2, 3}, read);
        read[1] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, m.getBytes("b"));
        ((byte[]) m.getObject("b"))[2] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, m.getBytes("b"));
    }

    @Test
    void setBytesWithOffsetAndLength() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        m.setBytes("b", new byte[] {0, 1, 2, 3, 4}, 1, 3);
        assertArrayEquals(new byte[] {1, 2, 3}, m.getBytes("b"));
    }

    @Test
    void setObjectAcceptsWrappersStringBytesAndNull() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        List<Object> values = List.of(true, (byte) 1, (short) 2, 'c', 3, 4L, 5f, 6d, "seven");
        for (int i = 0; i < values.size(); i++) {
            m.setObject("k" + i, values.get(i));
        }
        m.setObject("bytes", new byte[] {8});
        m.setObject("nothing", null);
        for (int i = 0; i < values.size(); i++) {
            assertEquals(values.get(i), m.getObject("k" + i));
        }
        assertArrayEquals(new byte[] {8}, (byte[]) m.getObject("bytes"));
        assertTrue(m.itemExists("nothing"));
        assertNull(m.getObject("nothing"));
    }

    @Test
    void setObjectRejectsOtherTypes() {
        PartitaMapMessage m = new PartitaMapMessage();
        assertThrows(MessageFormatException.class, () -> m.setObject("x", new Object()));
        assertThrows(MessageFormatException.class, () -> m.setObject("x", new HashMap<>()));
        assertThrows(MessageFormatException.class, () -> m.setObject("x", new int[] {1}));
        assertFalse(m.itemExists("x"));
    }

    @Test
    void receivedMapIsReadOnlyUntilClearBody() throws JMSException {
        PartitaMapMessage sent = new PartitaMapMessage();
        sent.setInt("a", 1);
        MapMessage m = (MapMessage) TestMessages.received(sent);
        assertEquals(1, m.getInt("a"));
        assertThrows(MessageNotWriteableException.class, () -> m.setInt("a", 2));
        assertThrows(MessageNotWriteableException.class, () -> m.setString("b", "x"));
        assertThrows(MessageNotWriteableException.class, () -> m.setBytes("b", new byte[1]));
        assertThrows(MessageNotWriteableException.class, () -> m.setBytes("b", new byte[1], 0, 1));
        assertThrows(MessageNotWriteableException.class, () -> m.setObject("b", 1));
        assertThrows(MessageNotWriteableException.class, () -> m.setChar("b", 'c'));
        m.clearBody();
        assertFalse(m.itemExists("a"));
        m.setInt("a", 2);
        assertEquals(2, m.getInt("a"));
    }

    @Test
    void getBodyReturnsACopyAsMap() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        m.setInt("a", 1);
        m.setBytes("b", new byte[] {2});
        Map<?, ?> body = m.getBody(Map.class);
        assertEquals(1, body.get("a"));
        assertArrayEquals(new byte[] {2}, (byte[]) body.get("b"));
        @SuppressWarnings("unchecked")
        Map<String, Object> writable = m.getBody(Map.class);
        writable.put("c", 3); // the copy may be changed freely; the message is not
        assertFalse(m.itemExists("c"));
        assertTrue(m.isBodyAssignableTo(Map.class));
        assertTrue(m.isBodyAssignableTo(Object.class));
        assertFalse(m.isBodyAssignableTo(HashMap.class));
        assertFalse(m.isBodyAssignableTo(String.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(String.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(HashMap.class));
    }

    @Test
    void emptyMapHasNoBody() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        assertNull(m.getBody(Map.class));
        assertNull(m.getBody(String.class));
        assertTrue(m.isBodyAssignableTo(String.class));
    }
}
