package org.partita.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.protocol.WireMessage;

/**
 * A set of named, typed values. Reading a value as another type follows the conversion table of
 * the spec (section 3.11.3); reading a name that is absent behaves as reading a null value.
 * Byte arrays are copied on the way in and out so the stored value cannot change behind the
 * message's back.
 */
public class PartitaMapMessage extends PartitaMessage implements MapMessage {
    private final Map<String, Object> values = new LinkedHashMap<>();

    public PartitaMapMessage() {}

    // ---------------------------------------------------------------- reading

    @Override
    public boolean getBoolean(String name) throws JMSException {
        return Conversions.toBoolean(values.get(name));
    }

    @Override
    public byte getByte(String name) throws JMSException {
        return Conversions.toByte(values.get(name));
    }

    @Override
    public short getShort(String name) throws JMSException {
        return Conversions.toShort(values.get(name));
    }

    @Override
    public char getChar(String name) throws JMSException {
        return Conversions.toChar(values.get(name));
    }

    @Override
    public int getInt(String name) throws JMSException {
        return Conversions.toInt(values.get(name));
    }

    @Override
    public long getLong(String name) throws JMSException {
        return Conversions.toLong(values.get(name));
    }

    @Override
    public float getFloat(String name) throws JMSException {
        return Conversions.toFloat(values.get(name));
    }

    @Override
    public double getDouble(String name) throws JMSException {
        return Conversions.toDouble(values.get(name));
    }

    @Override
    public String getString(String name) throws JMSException {
        return Conversions.toText(values.get(name));
    }

    @Override
    public byte[] getBytes(String name) throws JMSException {
        return Conversions.toBytes(values.get(name));
    }

    @Override
    public Object getObject(String name) {
        return Conversions.defensiveCopy(values.get(name));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Enumeration getMapNames() {
        return Collections.enumeration(new ArrayList<>(values.keySet()));
    }

    @Override
    public boolean itemExists(String name) {
        return values.containsKey(name);
    }

    // ---------------------------------------------------------------- writing

    @Override
    public void setBoolean(String name, boolean value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setByte(String name, byte value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setShort(String name, short value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setChar(String name, char value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setInt(String name, int value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setLong(String name, long value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setFloat(String name, float value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setDouble(String name, double value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setString(String name, String value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setBytes(String name, byte[] value) throws JMSException {
        put(name, value == null ? null : value.clone());
    }

    @Override
    public void setBytes(String name, byte[] value, int offset, int length) throws JMSException {
        put(name, Arrays.copyOfRange(value, offset, Math.addExact(offset, length)));
    }

    /** Only the primitive wrappers, String and byte[] (or null) have a defined map representation. */
    @Override
    public void setObject(String name, Object value) throws JMSException {
        if (value != null && !Conversions.isBodyType(value)) {
            throw new MessageFormatException(
                    "a map message cannot hold a " + value.getClass().getName());
        }
        put(name, Conversions.defensiveCopy(value));
    }

    private void put(String name, Object value) throws JMSException {
        checkBodyWritable();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("map item name must not be null or empty");
        }
        values.put(name, value);
    }

    // ---------------------------------------------------------------- body as a whole

    /** A copy; an empty map counts as no body. */
    @Override
    Object bodyValue() {
        if (values.isEmpty()) {
            return null;
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        values.forEach((k, v) -> copy.put(k, Conversions.defensiveCopy(v)));
        return copy;
    }

    /** getBody promises a Map, not the implementation class behind it. */
    @Override
    Class<?> bodyClass(Object body) {
        return Map.class;
    }

    @Override
    void clearBodyContent() {
        values.clear();
    }

    @Override
    int wireBodyType() {
        return WireMessage.BODY_MAP;
    }

    @Override
    byte[] encodeBody() {
        return BodyValues.encodeMap(values);
    }

    @Override
    void restoreBody(byte[] body) {
        values.clear();
        values.putAll(BodyValues.decodeMap(body));
        super.restoreBody(body);
    }
}
