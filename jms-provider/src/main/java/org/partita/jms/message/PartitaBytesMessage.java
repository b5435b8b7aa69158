package org.partita.jms.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import org.partita.protocol.WireMessage;

/**
 * A stream of uninterpreted bytes in the {@link java.io.DataOutput} format. It starts write-only;
 * {@link #reset()} switches it to read-only and rewinds; {@link #clearBody()} empties it and makes
 * it write-only again. A received message is read-only and positioned at the start.
 *
 * <p>A read that fails (end of body, malformed UTF) leaves the position where it was, so the
 * caller can retry with another method.
 */
public class PartitaBytesMessage extends PartitaMessage implements BytesMessage {
    private static final byte[] EMPTY = new byte[0];

    // Write mode: what has been written so far.
    private ByteArrayOutputStream written = new ByteArrayOutputStream();
    private DataOutputStream out = new DataOutputStream(written);
    // Read mode: the whole body and a cursor over it.
    private byte[] data = EMPTY;
    private DataInputStream in;
    /** A large body received in parts, read from where it is kept instead of {@link #data}. */
    private LargeBody large;
    /** Where the body to send comes from instead of what was written (JMS_PARTITA_InputStream). */
    private java.io.InputStream source;

    /** A read moves back this far at most after it fails: the longest primitive, a UTF string of 65535 bytes. */
    private static final int MARK_LIMIT = 2 + 65_535;

    public PartitaBytesMessage() {}

    // ---------------------------------------------------------------- mode

    @Override
    public void reset() throws JMSException {
        if (!isBodyReadOnly()) {
            data = written.toByteArray();
            written = null;
            out = null;
            setBodyReadOnly(true);
        }
        closeReader();
        in = large != null ? new DataInputStream(openLarge()) : new DataInputStream(new ByteArrayInputStream(data));
    }

    /** A large body's reader holds its temporary file open: closed when the body is read again or cleared. */
    private void closeReader() {
        if (in != null && large != null) {
            try {
                in.close();
            } catch (IOException e) {
                // nothing was written through it
            }
        }
    }

    private java.io.InputStream openLarge() throws JMSException {
        return BodyStreams.open(large);
    }

    @Override
    void clearBodyContent() {
        written = new ByteArrayOutputStream();
        out = new DataOutputStream(written);
        data = EMPTY;
        closeReader();
        in = null;
        large = null;
        source = null;
    }

    @Override
    public long getBodyLength() throws JMSException {
        checkBodyReadable();
        return large != null ? large.length() : data.length;
    }

    // ---------------------------------------------------------------- reading

    /** One primitive read from the body; an IOException here means end of data or malformed data. */
    @FunctionalInterface
    private interface Read<T> {
        T from(DataInputStream in) throws IOException;
    }

    private <T> T read(Read<T> r) throws JMSException {
        checkBodyReadable();
        // ByteArrayInputStream ignores the limit; mark/reset is what keeps a failed read from moving on.
        in.mark(MARK_LIMIT);
        try {
            return r.from(in);
        } catch (EOFException e) {
            rewindToMark();
            throw Exceptions.linked(new MessageEOFException("end of the message body"), e);
        } catch (IOException e) {
            rewindToMark();
            throw Exceptions.linked(new MessageFormatException("cannot read the body: " + e.getMessage()), e);
        }
    }

    private void rewindToMark() {
        try {
            in.reset();
        } catch (IOException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public boolean readBoolean() throws JMSException {
        return read(DataInputStream::readBoolean);
    }

    @Override
    public byte readByte() throws JMSException {
        return read(DataInputStream::readByte);
    }

    @Override
    public int readUnsignedByte() throws JMSException {
        return read(DataInputStream::readUnsignedByte);
    }

    @Override
    public short readShort() throws JMSException {
        return read(DataInputStream::readShort);
    }

    @Override
    public int readUnsignedShort() throws JMSException {
        return read(DataInputStream::readUnsignedShort);
    }

    @Override
    public char readChar() throws JMSException {
        return read(DataInputStream::readChar);
    }

    @Override
    public int readInt() throws JMSException {
        return read(DataInputStream::readInt);
    }

    @Override
    public long readLong() throws JMSException {
        return read(DataInputStream::readLong);
    }

    @Override
    public float readFloat() throws JMSException {
        return read(DataInputStream::readFloat);
    }

    @Override
    public double readDouble() throws JMSException {
        return read(DataInputStream::readDouble);
    }

    @Override
    public String readUTF() throws JMSException {
        return read(s -> s.readUTF());
    }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        return readBytes(value, value.length);
    }

    /** Reads up to length bytes; returns how many, or -1 when the body is exhausted. */
    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        if (length < 0 || length > value.length) {
            throw new IndexOutOfBoundsException("length " + length + " for a buffer of " + value.length);
        }
        // Returns -1 at the end of the body, like InputStream.read.
        return read(s -> s.read(value, 0, length));
    }

    // ---------------------------------------------------------------- writing

    @FunctionalInterface
    private interface Write {
        void to(DataOutputStream out) throws IOException;
    }

    private void write(Write w) throws JMSException {
        checkBodyWritable();
        try {
            w.to(out);
        } catch (IOException e) {
            // Only writeUTF can fail here: strings longer than 65535 encoded bytes.
            throw Exceptions.linked(new MessageFormatException("cannot write: " + e.getMessage()), e);
        }
    }

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        write(o -> o.writeBoolean(value));
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        write(o -> o.writeByte(value));
    }

    @Override
    public void writeShort(short value) throws JMSException {
        write(o -> o.writeShort(value));
    }

    @Override
    public void writeChar(char value) throws JMSException {
        write(o -> o.writeChar(value));
    }

    @Override
    public void writeInt(int value) throws JMSException {
        write(o -> o.writeInt(value));
    }

    @Override
    public void writeLong(long value) throws JMSException {
        write(o -> o.writeLong(value));
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        write(o -> o.writeFloat(value));
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        write(o -> o.writeDouble(value));
    }

    @Override
    public void writeUTF(String value) throws JMSException {
        write(o -> o.writeUTF(value));
    }

    @Override
    public void writeBytes(byte[] value) throws JMSException {
        write(o -> o.write(value));
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        write(o -> o.write(value, offset, length));
    }

    /** Accepts the primitive wrappers, String and byte[], as the spec lists; null is a NullPointerException. */
    @Override
    public void writeObject(Object value) throws JMSException {
        if (value == null) {
            throw new NullPointerException("writeObject(null)");
        } else if (value instanceof Boolean v) {
            writeBoolean(v);
        } else if (value instanceof Byte v) {
            writeByte(v);
        } else if (value instanceof Short v) {
            writeShort(v);
        } else if (value instanceof Character v) {
            writeChar(v);
        } else if (value instanceof Integer v) {
            writeInt(v);
        } else if (value instanceof Long v) {
            writeLong(v);
        } else if (value instanceof Float v) {
            writeFloat(v);
        } else if (value instanceof Double v) {
            writeDouble(v);
        } else if (value instanceof String v) {
            writeUTF(v);
        } else if (value instanceof byte[] v) {
            writeBytes(v);
        } else {
            throw new MessageFormatException(
                    "writeObject cannot write a " + value.getClass().getName());
        }
    }

    // ---------------------------------------------------------------- body as a whole

    private byte[] currentBytes() throws JMSException {
        if (large != null) {
            try {
                return large.readAll();
            } catch (IOException e) {
                throw Exceptions.linked(new MessageFormatException(e.getMessage()), e);
            }
        }
        return isBodyReadOnly() ? data.clone() : written.toByteArray();
    }

    /** The whole body in either mode, without moving the read position; an empty body counts as none. */
    @Override
    Object bodyValue() throws JMSException {
        byte[] bytes = currentBytes();
        return bytes.length == 0 ? null : bytes;
    }

    @Override
    int wireBodyType() {
        return WireMessage.BODY_BYTES;
    }

    @Override
    byte[] encodeBody() {
        if (source != null || large != null) {
            return EMPTY; // sent in parts from streamedBody()
        }
        return isBodyReadOnly() ? data.clone() : written.toByteArray();
    }

    @Override
    public java.io.InputStream streamedBody() throws JMSException {
        if (source != null) {
            return source;
        }
        return large != null ? openLarge() : null;
    }

    @Override
    void bodyFrom(java.io.InputStream stream) throws JMSException {
        checkBodyWritable();
        source = stream;
    }

    @Override
    void saveBodyTo(java.io.OutputStream target) throws JMSException {
        checkBodyReadable();
        BodyStreams.save(large, data, target);
    }

    @Override
    void restoreLargeBody(LargeBody body) throws IOException {
        restoreBody(EMPTY);
        large = body;
        in = new DataInputStream(body.open());
    }

    @Override
    void restoreBody(byte[] body) {
        written = null;
        out = null;
        data = body == null ? EMPTY : body;
        super.restoreBody(body);
        in = new DataInputStream(new ByteArrayInputStream(data));
    }
}
