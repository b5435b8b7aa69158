package org.partita.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.StreamMessage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.partita.protocol.WireMessage;

/**
 * A sequence of typed values read back in order. Like a bytes message it is write-only until
 * {@link #reset()}, read-only afterwards and when received.
 *
 * <p>Reading a value as another type follows the spec's conversion table. A read that fails with
 * MessageFormatException or NumberFormatException does not move the position (spec section
 * 3.11.3), so the caller may try again with another type. A byte[] value may be read in pieces
 * with {@link #readBytes(byte[])}; until that piecewise read is finished no other value can be read.
 */
public class PartitaStreamMessage extends PartitaMessage implements StreamMessage {
    /** Marks "not inside a byte[] value" for {@link #bytesOffset}. */
    private static final int NOT_READING_BYTES = -1;

    private final List<Object> values = new ArrayList<>();
    private int position;
    // How much of the byte[] value at position readBytes has handed out so far.
    private int bytesOffset = NOT_READING_BYTES;
    /**
     * A large body received in parts: its values are decoded at the first read, so that an application
     * that only saves the body to a stream (JMS_PARTITA_SaveStream) never holds it in its heap.
     */
    private LargeBody large;
    /** Where the body to send comes from instead of the values written (JMS_PARTITA_InputStream). */
    private java.io.InputStream source;

    public PartitaStreamMessage() {}

    // ---------------------------------------------------------------- mode

    @Override
    public void reset() {
        setBodyReadOnly(true);
        rewind();
    }

    private void rewind() {
        position = 0;
        bytesOffset = NOT_READING_BYTES;
    }

    @Override
    void clearBodyContent() {
        values.clear();
        large = null;
        source = null;
        rewind();
    }

    /** Decodes a large body's values at the first read. */
    private void decodeLarge() throws JMSException {
        if (large == null || !values.isEmpty() || large.length() == 0) {
            return;
        }
        try {
            values.addAll(BodyValues.decodeList(large.readAll()));
        } catch (java.io.IOException e) {
            throw Exceptions.linked(new JMSException("cannot read the large body: " + e.getMessage()), e);
        } catch (org.partita.protocol.ProtocolException e) {
            throw Exceptions.linked(
                    new MessageFormatException("the body does not hold stream values: " + e.getMessage()), e);
        }
    }

    // ---------------------------------------------------------------- reading

    /** A conversion of the value at the current position; may throw without side effects. */
    @FunctionalInterface
    private interface Conversion<T> {
        T apply(Object value) throws MessageFormatException;
    }

    private <T> T readNext(Conversion<T> conversion) throws JMSException {
        checkBodyReadable();
        decodeLarge();
        if (bytesOffset != NOT_READING_BYTES) {
            throw new MessageFormatException("the byte[] value must be read completely with readBytes first");
        }
        if (position >= values.size()) {
            throw new MessageEOFException("end of the stream");
        }
        T result = conversion.apply(values.get(position));
        position++;
        return result;
    }

    @Override
    public boolean readBoolean() throws JMSException {
        return readNext(Conversions::toBoolean);
    }

    @Override
    public byte readByte() throws JMSException {
        return readNext(Conversions::toByte);
    }

    @Override
    public short readShort() throws JMSException {
        return readNext(Conversions::toShort);
    }

    @Override
    public char readChar() throws JMSException {
        return readNext(Conversions::toChar);
    }

    @Override
    public int readInt() throws JMSException {
        return readNext(Conversions::toInt);
    }

    @Override
    public long readLong() throws JMSException {
        return readNext(Conversions::toLong);
    }

    @Override
    public float readFloat() throws JMSException {
        return readNext(Conversions::toFloat);
    }

    @Override
    public double readDouble() throws JMSException {
        return readNext(Conversions::toDouble);
    }

    @Override
    public String readString() throws JMSException {
        return readNext(Conversions::toText);
    }

    @Override
    public Object readObject() throws JMSException {
        return readNext(Conversions::defensiveCopy);
    }

    /**
     * Copies the next piece of a byte[] value. Returns the number of bytes copied; a count smaller
     * than the buffer means the value is finished. When a value exactly filled the buffer, the next
     * call returns -1 to say so. A null value reads as -1 and an empty one as 0, each in one call.
     */
    @Override
    public int readBytes(byte[] buffer) throws JMSException {
        checkBodyReadable();
        decodeLarge();
        if (bytesOffset == NOT_READING_BYTES) {
            if (position >= values.size()) {
                throw new MessageEOFException("end of the stream");
            }
            Object value = values.get(position);
            if (value == null) {
                position++;
                return -1;
            }
            if (!(value instanceof byte[] bytes)) {
                throw new MessageFormatException(
                        "a " + value.getClass().getSimpleName() + " value cannot be read as byte[]");
            }
            if (bytes.length == 0) {
                position++;
                return 0;
            }
            bytesOffset = 0;
        }
        byte[] field = (byte[]) values.get(position);
        int remaining = field.length - bytesOffset;
        if (remaining == 0) {
            finishBytes();
            return -1;
        }
        int n = Math.min(buffer.length, remaining);
        System.arraycopy(field, bytesOffset, buffer, 0, n);
        bytesOffset += n;
        if (bytesOffset == field.length && n < buffer.length) {
            finishBytes();
        }
        return n;
    }

    private void finishBytes() {
        bytesOffset = NOT_READING_BYTES;
        position++;
    }

    // ---------------------------------------------------------------- writing

    private void append(Object value) throws JMSException {
        checkBodyWritable();
        values.add(value);
    }

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        append(value);
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        append(value);
    }

    @Override
    public void writeShort(short value) throws JMSException {
        append(value);
    }

    @Override
    public void writeChar(char value) throws JMSException {
        append(value);
    }

    @Override
    public void writeInt(int value) throws JMSException {
        append(value);
    }

    @Override
    public void writeLong(long value) throws JMSException {
        append(value);
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        append(value);
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        append(value);
    }

    @Override
    public void writeString(String value) throws JMSException {
        append(value);
    }

    /** A null array is stored as a null value, which readBytes reports as -1. */
    @Override
    public void writeBytes(byte[] value) throws JMSException {
        append(value == null ? null : value.clone());
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        append(Arrays.copyOfRange(value, offset, Math.addExact(offset, length)));
    }

    @Override
    public void writeObject(Object value) throws JMSException {
        if (value != null && !Conversions.isBodyType(value)) {
            throw new MessageFormatException(
                    "a stream message cannot hold a " + value.getClass().getName());
        }
        append(Conversions.defensiveCopy(value));
    }

    // ---------------------------------------------------------------- body as a whole

    /** The spec forbids getBody on a stream message: its body has no single-object form. */
    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        throw new MessageFormatException("getBody is not supported for a StreamMessage");
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) {
        return false;
    }

    @Override
    int wireBodyType() {
        return WireMessage.BODY_STREAM;
    }

    @Override
    byte[] encodeBody() {
        if (source != null || large != null) {
            return new byte[0]; // sent in parts from streamedBody()
        }
        return BodyValues.encodeList(values);
    }

    /**
     * Its body comes from {@code stream} (JMS_PARTITA_InputStream): the stream is the body as it
     * travels, the values in the layout {@link #saveBodyTo} writes, so that a stream message saved to a
     * file is sent again from it as it was. A receiver reading values from a body in another layout
     * gets a MessageFormatException; one saving it to a stream gets the bytes as sent.
     */
    @Override
    void bodyFrom(java.io.InputStream stream) throws JMSException {
        checkBodyWritable();
        source = stream;
    }

    @Override
    public java.io.InputStream streamedBody() throws JMSException {
        if (source != null) {
            return source;
        }
        return large == null ? null : BodyStreams.open(large);
    }

    /** Writes the body, as it travels (a count, then each value), to {@code target}; returns once written. */
    @Override
    void saveBodyTo(java.io.OutputStream target) throws JMSException {
        checkBodyReadable();
        BodyStreams.save(large, large == null ? BodyValues.encodeList(values) : null, target);
    }

    @Override
    void restoreLargeBody(LargeBody body) {
        restoreBody(null);
        large = body;
    }

    @Override
    void restoreBody(byte[] body) {
        values.clear();
        values.addAll(BodyValues.decodeList(body));
        rewind();
        super.restoreBody(body);
    }
}
