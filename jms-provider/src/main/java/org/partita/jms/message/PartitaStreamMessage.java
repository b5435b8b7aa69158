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
        rewind();
    }

    // ---------------------------------------------------------------- reading

    /** A conversion of the value at the current position; may throw without side effects. */
    @FunctionalInterface
    private interface Conversion<T> {
        T apply(Object value) throws MessageFormatException;
    }

    private <T> T readNext(Conversion<T> conversion) throws JMSException {
        checkBodyReadable();
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
        return BodyValues.encodeList(values);
    }

    @Override
    void restoreBody(byte[] body) {
        values.clear();
        values.addAll(BodyValues.decodeList(body));
        rewind();
        super.restoreBody(body);
    }
}
