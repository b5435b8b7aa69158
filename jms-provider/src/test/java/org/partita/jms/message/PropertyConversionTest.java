package org.partita.jms.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.jms.message.ConversionTable.Kind;

/** Spec section 3.5.4: every cell of the property conversion table, plus null and bad strings. */
class PropertyConversionTest {

    static void set(PartitaMessage m, Kind kind, String name, Object value) throws JMSException {
        switch (kind) {
            case BOOLEAN -> m.setBooleanProperty(name, (Boolean) value);
            case BYTE -> m.setByteProperty(name, (Byte) value);
            case SHORT -> m.setShortProperty(name, (Short) value);
            case INT -> m.setIntProperty(name, (Integer) value);
            case LONG -> m.setLongProperty(name, (Long) value);
            case FLOAT -> m.setFloatProperty(name, (Float) value);
            case DOUBLE -> m.setDoubleProperty(name, (Double) value);
            case STRING -> m.setStringProperty(name, (String) value);
            default -> throw new IllegalArgumentException(kind.name());
        }
    }

    static Object get(PartitaMessage m, Kind kind, String name) throws JMSException {
        return switch (kind) {
            case BOOLEAN -> m.getBooleanProperty(name);
            case BYTE -> m.getByteProperty(name);
            case SHORT -> m.getShortProperty(name);
            case INT -> m.getIntProperty(name);
            case LONG -> m.getLongProperty(name);
            case FLOAT -> m.getFloatProperty(name);
            case DOUBLE -> m.getDoubleProperty(name);
            case STRING -> m.getStringProperty(name);
            default -> throw new IllegalArgumentException(kind.name());
        };
    }

    @ParameterizedTest(name = "{0} read as {1}")
    @MethodSource("org.partita.jms.message.ConversionTable#propertyCells")
    void conversionTableCell(Kind from, Kind to) throws JMSException {
        PartitaMessage m = new PartitaMessage();
        set(m, from, "p", ConversionTable.sample(from));
        Object expected = ConversionTable.expected(from, to);
        if (expected == ConversionTable.FAILS) {
            assertThrows(MessageFormatException.class, () -> get(m, to, "p"));
        } else {
            assertEquals(expected, get(m, to, "p"));
        }
        // getObjectProperty always returns the value in the type it was set with.
        assertEquals(ConversionTable.sample(from), m.getObjectProperty("p"));
    }

    @ParameterizedTest(name = "{0} read as {1} after receipt")
    @MethodSource("org.partita.jms.message.ConversionTable#propertyCells")
    void conversionTableCellSurvivesTheWire(Kind from, Kind to) throws JMSException {
        PartitaMessage sent = new PartitaMessage();
        set(sent, from, "p", ConversionTable.sample(from));
        PartitaMessage m = TestMessages.received(sent);
        Object expected = ConversionTable.expected(from, to);
        if (expected == ConversionTable.FAILS) {
            assertThrows(MessageFormatException.class, () -> get(m, to, "p"));
        } else {
            assertEquals(expected, get(m, to, "p"));
        }
    }

    @Test
    void missingPropertyBehavesLikeValueOfNull() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        assertNull(m.getStringProperty("absent"));
        assertNull(m.getObjectProperty("absent"));
        assertFalse(m.getBooleanProperty("absent"));
        assertThrows(NumberFormatException.class, () -> m.getByteProperty("absent"));
        assertThrows(NumberFormatException.class, () -> m.getShortProperty("absent"));
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("absent"));
        assertThrows(NumberFormatException.class, () -> m.getLongProperty("absent"));
        // Float.valueOf(null) and Double.valueOf(null) throw NullPointerException.
        assertThrows(NullPointerException.class, () -> m.getFloatProperty("absent"));
        assertThrows(NullPointerException.class, () -> m.getDoubleProperty("absent"));
    }

    @Test
    void nullStringPropertyBehavesLikeAMissingOne() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setStringProperty("s", null);
        assertTrue(m.propertyExists("s"));
        assertNull(m.getStringProperty("s"));
        assertFalse(m.getBooleanProperty("s"));
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("s"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "", " 7", "7.5x"})
    void unparsableStringIsANumberFormatException(String value) throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setStringProperty("s", value);
        assertThrows(NumberFormatException.class, () -> m.getByteProperty("s"));
        assertThrows(NumberFormatException.class, () -> m.getShortProperty("s"));
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("s"));
        assertThrows(NumberFormatException.class, () -> m.getLongProperty("s"));
        if (!value.equals(" 7")) { // Float.valueOf trims white space
            assertThrows(NumberFormatException.class, () -> m.getFloatProperty("s"));
            assertThrows(NumberFormatException.class, () -> m.getDoubleProperty("s"));
        }
        assertFalse(m.getBooleanProperty("s"));
    }

    @Test
    void stringToBooleanIgnoresCase() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setStringProperty("s", "TrUe");
        assertTrue(m.getBooleanProperty("s"));
    }

    @Test
    void outOfRangeStringIsANumberFormatException() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setStringProperty("s", "300");
        assertEquals(300, m.getIntProperty("s"));
        assertThrows(NumberFormatException.class, () -> m.getByteProperty("s"));
    }

    @Test
    void widenedValuesKeepTheirValue() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setByteProperty("b", Byte.MIN_VALUE);
        m.setShortProperty("s", Short.MAX_VALUE);
        m.setIntProperty("i", Integer.MIN_VALUE);
        m.setFloatProperty("f", Float.MAX_VALUE);
        assertEquals(Byte.MIN_VALUE, m.getLongProperty("b"));
        assertEquals(Short.MAX_VALUE, m.getIntProperty("s"));
        assertEquals(Integer.MIN_VALUE, m.getLongProperty("i"));
        assertEquals(Float.MAX_VALUE, m.getDoubleProperty("f"));
    }
}
