package org.partita.tck.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 3.5: message properties. */
class MessagePropertiesTest extends TckTest {

    private Message withEveryType(Session s) throws JMSException {
        Message m = s.createMessage();
        m.setBooleanProperty("bool", true);
        m.setByteProperty("byte", (byte) -2);
        m.setShortProperty("short", (short) 300);
        m.setIntProperty("int", 70_000);
        m.setLongProperty("long", 1L << 42);
        m.setFloatProperty("float", 1.25f);
        m.setDoubleProperty("double", 2.5e10);
        m.setStringProperty("string", "value");
        return m;
    }

    @Test
    @DisplayName("3.5.2: properties of every type arrive with their values")
    void everyTypeRoundTrip() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, withEveryType(s));
        assertTrue(r.getBooleanProperty("bool"));
        assertEquals((byte) -2, r.getByteProperty("byte"));
        assertEquals((short) 300, r.getShortProperty("short"));
        assertEquals(70_000, r.getIntProperty("int"));
        assertEquals(1L << 42, r.getLongProperty("long"));
        assertEquals(1.25f, r.getFloatProperty("float"));
        assertEquals(2.5e10, r.getDoubleProperty("double"));
        assertEquals("value", r.getStringProperty("string"));
    }

    @Test
    @DisplayName("3.5.5: getObjectProperty returns the objectified type the property was set with")
    void objectPropertyTypes() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, withEveryType(s));
        assertInstanceOf(Boolean.class, r.getObjectProperty("bool"));
        assertInstanceOf(Byte.class, r.getObjectProperty("byte"));
        assertInstanceOf(Short.class, r.getObjectProperty("short"));
        assertInstanceOf(Integer.class, r.getObjectProperty("int"));
        assertInstanceOf(Long.class, r.getObjectProperty("long"));
        assertInstanceOf(Float.class, r.getObjectProperty("float"));
        assertInstanceOf(Double.class, r.getObjectProperty("double"));
        assertInstanceOf(String.class, r.getObjectProperty("string"));
    }

    @Test
    @DisplayName("3.5.5: setObjectProperty accepts the objectified types and they convert like the typed setters")
    void setObjectProperty() throws JMSException {
        Session s = session();
        Message m = s.createMessage();
        m.setObjectProperty("i", 5);
        m.setObjectProperty("b", (byte) 1);
        m.setObjectProperty("s", "str");
        Message r = roundTrip(s, m);
        assertEquals(5, r.getIntProperty("i"));
        assertEquals(5L, r.getLongProperty("i"));
        assertEquals(1, r.getIntProperty("b"));
        assertEquals("str", r.getStringProperty("s"));
    }

    @Test
    @DisplayName("3.5.5: setObjectProperty with a collection throws MessageFormatException")
    void setObjectPropertyUnsupported() throws JMSException {
        Message m = connection().createSession().createMessage();
        assertThrows(MessageFormatException.class, () -> m.setObjectProperty("list", new ArrayList<>()));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "3.5.5: Artemis accepts Character and byte[] property values, "
                    + "which the spec says must be refused with MessageFormatException")
    @DisplayName(
            "3.5.5: setObjectProperty with Character or byte[] (not property types) throws " + "MessageFormatException")
    void setObjectPropertyCharAndBytes() throws JMSException {
        Message m = connection().createSession().createMessage();
        assertThrows(MessageFormatException.class, () -> m.setObjectProperty("chr", 'c'));
        assertThrows(MessageFormatException.class, () -> m.setObjectProperty("bytes", new byte[] {1}));
    }

    @Test
    @DisplayName("3.5.4: widening conversions are supported (byte->short/int/long, short->int, int->long, "
            + "float->double)")
    void wideningConversions() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, withEveryType(s));
        assertEquals((short) -2, r.getShortProperty("byte"));
        assertEquals(-2, r.getIntProperty("byte"));
        assertEquals(-2L, r.getLongProperty("byte"));
        assertEquals(300, r.getIntProperty("short"));
        assertEquals(70_000L, r.getLongProperty("int"));
        assertEquals(1.25, r.getDoubleProperty("float"));
    }

    @Test
    @DisplayName("3.5.4: every type reads as String")
    void toStringConversions() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, withEveryType(s));
        assertEquals("true", r.getStringProperty("bool"));
        assertEquals("-2", r.getStringProperty("byte"));
        assertEquals("70000", r.getStringProperty("int"));
        assertEquals(String.valueOf(1L << 42), r.getStringProperty("long"));
        assertEquals("1.25", r.getStringProperty("float"));
    }

    @Test
    @DisplayName("3.5.4: a String reads as any primitive through valueOf")
    void fromStringConversions() throws JMSException {
        Message m = connection().createSession().createMessage();
        m.setStringProperty("n", "42");
        m.setStringProperty("d", "0.5");
        m.setStringProperty("z", "true");
        assertEquals((byte) 42, m.getByteProperty("n"));
        assertEquals((short) 42, m.getShortProperty("n"));
        assertEquals(42, m.getIntProperty("n"));
        assertEquals(42L, m.getLongProperty("n"));
        assertEquals(0.5f, m.getFloatProperty("d"));
        assertEquals(0.5, m.getDoubleProperty("d"));
        assertTrue(m.getBooleanProperty("z"));
    }

    @Test
    @DisplayName("3.5.4: a String that is not a number read as a number throws NumberFormatException")
    void badStringConversion() throws JMSException {
        Message m = connection().createSession().createMessage();
        m.setStringProperty("s", "twelve");
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("s"));
        assertThrows(NumberFormatException.class, () -> m.getLongProperty("s"));
    }

    @Test
    @DisplayName("3.5.4: unmarked conversions (narrowing, boolean<->number, floating->integral) throw "
            + "MessageFormatException")
    void unsupportedConversions() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, withEveryType(s));
        assertThrows(MessageFormatException.class, () -> r.getByteProperty("short"));
        assertThrows(MessageFormatException.class, () -> r.getShortProperty("int"));
        assertThrows(MessageFormatException.class, () -> r.getIntProperty("long"));
        assertThrows(MessageFormatException.class, () -> r.getIntProperty("bool"));
        assertThrows(MessageFormatException.class, () -> r.getBooleanProperty("int"));
        assertThrows(MessageFormatException.class, () -> r.getFloatProperty("double"));
        assertThrows(MessageFormatException.class, () -> r.getLongProperty("float"));
        assertThrows(MessageFormatException.class, () -> r.getDoubleProperty("long"));
    }

    @Test
    @DisplayName("3.5.8: a property that was not set reads as null (String, Object) and propertyExists is false")
    void missingPropertyIsNull() throws JMSException {
        Message m = connection().createSession().createMessage();
        assertNull(m.getStringProperty("missing"));
        assertNull(m.getObjectProperty("missing"));
        assertFalse(m.propertyExists("missing"));
    }

    @Test
    @DisplayName("3.5.4 / 3.5.8: a missing property read as boolean is Boolean.valueOf(null), i.e. false")
    void missingPropertyAsBoolean() throws JMSException {
        assertFalse(connection().createSession().createMessage().getBooleanProperty("missing"));
    }

    @Test
    @DisplayName("3.5.4 / 3.5.8: a missing property read as int or long is valueOf(null): NumberFormatException")
    void missingPropertyAsInteger() throws JMSException {
        Message m = connection().createSession().createMessage();
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("missing"));
        assertThrows(NumberFormatException.class, () -> m.getLongProperty("missing"));
        assertThrows(NumberFormatException.class, () -> m.getByteProperty("missing"));
        assertThrows(NumberFormatException.class, () -> m.getShortProperty("missing"));
    }

    @Test
    @DisplayName("3.5.4 / 3.5.8: a missing property read as double or float is valueOf(null): NullPointerException")
    void missingPropertyAsFloating() throws JMSException {
        Message m = connection().createSession().createMessage();
        assertThrows(NullPointerException.class, () -> m.getDoubleProperty("missing"));
        assertThrows(NullPointerException.class, () -> m.getFloatProperty("missing"));
    }

    @Test
    @DisplayName("3.5.6: getPropertyNames lists the application properties and no header fields")
    void propertyNames() throws JMSException {
        Session s = session();
        Message m = s.createMessage();
        m.setIntProperty("a", 1);
        m.setStringProperty("b", "2");
        m.setJMSCorrelationID("c");
        m.setJMSType("t");
        Message r = roundTrip(s, m);
        Set<String> names = new HashSet<>();
        for (Object n : Collections.list(r.getPropertyNames())) {
            names.add((String) n);
        }
        assertTrue(names.containsAll(Set.of("a", "b")), names.toString());
        for (String n : names) {
            assertFalse(
                    n.equals("JMSCorrelationID")
                            || n.equals("JMSType")
                            || n.equals("JMSMessageID")
                            || n.equals("JMSTimestamp")
                            || n.equals("JMSDestination")
                            || n.equals("JMSPriority")
                            || n.equals("JMSDeliveryMode")
                            || n.equals("JMSExpiration")
                            || n.equals("JMSRedelivered"),
                    "header field listed as a property: " + n);
        }
    }

    @Test
    @DisplayName("3.5.7: clearProperties removes the properties and leaves the body alone")
    void clearProperties() throws JMSException {
        TextMessage m = connection().createSession().createTextMessage("body");
        m.setIntProperty("a", 1);
        m.clearProperties();
        assertFalse(m.propertyExists("a"));
        assertNull(m.getObjectProperty("a"));
        assertEquals("body", m.getText());
        m.setIntProperty("b", 2);
        assertEquals(2, m.getIntProperty("b"));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "3.5.7: Artemis always lists JMSXDeliveryCount in "
                    + "getPropertyNames, even after clearProperties on a message that was never received")
    @DisplayName("3.5.7: after clearProperties the message has an empty set of properties")
    void clearPropertiesLeavesNoNames() throws JMSException {
        Message m = connection().createSession().createMessage();
        m.setIntProperty("a", 1);
        m.clearProperties();
        assertEquals(java.util.List.of(), Collections.list(m.getPropertyNames()));
    }

    @Test
    @DisplayName("3.5.3: properties of a received message are read-only (MessageNotWriteableException)")
    void receivedPropertiesReadOnly() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, s.createTextMessage("x"));
        assertThrows(MessageNotWriteableException.class, () -> r.setStringProperty("p", "v"));
        assertThrows(MessageNotWriteableException.class, () -> r.setObjectProperty("p", 1));
    }

    @Test
    @DisplayName("3.10: after clearProperties the properties of a received message are writable")
    void clearPropertiesMakesWritable() throws JMSException {
        Session s = session();
        Message m = s.createTextMessage("x");
        m.setIntProperty("old", 1);
        Message r = roundTrip(s, m);
        r.clearProperties();
        r.setIntProperty("new", 2);
        assertEquals(2, r.getIntProperty("new"));
        assertFalse(r.propertyExists("old"));
    }

    @Test
    @DisplayName("Message.setXxxProperty: a null or empty property name throws IllegalArgumentException")
    void invalidPropertyName() throws JMSException {
        Message m = connection().createSession().createMessage();
        assertThrows(IllegalArgumentException.class, () -> m.setStringProperty(null, "v"));
        assertThrows(IllegalArgumentException.class, () -> m.setStringProperty("", "v"));
        assertThrows(IllegalArgumentException.class, () -> m.setIntProperty("", 1));
    }

    @Test
    @DisplayName("3.5.1: property names other than null and empty are accepted, selector words such as "
            + "'true', 'and' and 'between' included, and arrive with the message")
    void selectorWordsAreValidPropertyNames() throws JMSException {
        Session s = session();
        Message m = s.createTextMessage("x");
        m.setBooleanProperty("true", false);
        m.setStringProperty("and", "a");
        m.setIntProperty("between", 3);
        Message r = roundTrip(s, m);
        assertFalse(r.getBooleanProperty("true"));
        assertEquals("a", r.getStringProperty("and"));
        assertEquals(3, r.getIntProperty("between"));
    }

    @Test
    @DisplayName("3.12: a null String property value is allowed and reads back as null")
    void nullStringValue() throws JMSException {
        Message m = connection().createSession().createMessage();
        m.setStringProperty("nothing", null);
        assertNull(m.getStringProperty("nothing"));
    }

    @Test
    @DisplayName("3.5.9: JMSXGroupID and JMSXGroupSeq, set by the client, arrive with the message")
    void groupProperties() throws JMSException {
        Session s = session();
        Message m = s.createTextMessage("grouped");
        m.setStringProperty("JMSXGroupID", "group-a");
        m.setIntProperty("JMSXGroupSeq", 3);
        Message r = roundTrip(s, m);
        assertEquals("group-a", r.getStringProperty("JMSXGroupID"));
        assertEquals(3, r.getIntProperty("JMSXGroupSeq"));
    }

    @Test
    @DisplayName("3.5.11: JMSXDeliveryCount is set on receipt, as an int")
    void deliveryCountIsInt() throws JMSException {
        Session s = session();
        Message r = roundTrip(s, s.createTextMessage("x"));
        assertEquals(1, r.getIntProperty("JMSXDeliveryCount"));
        assertInstanceOf(Integer.class, r.getObjectProperty("JMSXDeliveryCount"));
    }

    @Test
    @DisplayName("3.5.1: property names are case sensitive")
    void namesCaseSensitive() throws JMSException {
        Session s = session();
        Message m = s.createMessage();
        m.setStringProperty("color", "lower");
        m.setStringProperty("Color", "upper");
        Message r = roundTrip(s, m);
        assertEquals("lower", r.getStringProperty("color"));
        assertEquals("upper", r.getStringProperty("Color"));
    }

    @Test
    @DisplayName("3.5.2: a property set twice keeps the last value")
    void lastValueWins() throws JMSException {
        Session s = session();
        Message m = s.createMessage();
        m.setIntProperty("p", 1);
        m.setStringProperty("p", "second");
        assertEquals("second", roundTrip(s, m).getStringProperty("p"));
    }

    @Test
    @DisplayName("3.10: a message modified by the consumer and redelivered arrives unmodified")
    void redeliveredMessageIsOriginal() throws JMSException {
        var q = queue();
        Session s = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        Session sender = connection().createSession();
        TextMessage original = sender.createTextMessage("original");
        original.setStringProperty("p", "original");
        sender.createProducer(q).send(original);
        var consumer = s.createConsumer(q);
        TextMessage first = (TextMessage) receive(consumer);
        first.clearBody();
        first.setText("modified");
        first.clearProperties();
        first.setStringProperty("p", "modified");
        s.recover();
        TextMessage again = (TextMessage) receive(consumer);
        assertTrue(again.getJMSRedelivered());
        assertEquals("original", again.getText());
        assertEquals("original", again.getStringProperty("p"));
        again.acknowledge();
    }
}
