package org.partita.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import org.partita.protocol.WireMessage;

/**
 * A message carrying one serializable object. The object is serialized when it is set, as the spec
 * requires: later changes to it do not reach the message, and every {@link #getObject()} returns a
 * fresh copy.
 *
 * <p>Deserialization runs whatever classes the sender chose; it honours the JVM-wide
 * {@code jdk.serialFilter}, which is where an application restricts what it accepts.
 */
public class PartitaObjectMessage extends PartitaMessage implements ObjectMessage {
    private byte[] serialized;

    public PartitaObjectMessage() {}

    public PartitaObjectMessage(Serializable object) throws JMSException {
        this.serialized = serialize(object);
    }

    @Override
    public void setObject(Serializable object) throws JMSException {
        checkBodyWritable();
        this.serialized = serialize(object);
    }

    @Override
    public Serializable getObject() throws JMSException {
        return serialized == null ? null : deserialize(serialized);
    }

    private static byte[] serialize(Serializable object) throws MessageFormatException {
        if (object == null) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (IOException e) {
            throw Exceptions.linked(
                    new MessageFormatException(
                            "cannot serialize " + object.getClass().getName() + ": " + e),
                    e);
        }
        return bytes.toByteArray();
    }

    private static Serializable deserialize(byte[] bytes) throws MessageFormatException {
        try (ObjectInputStream in = new ContextClassLoaderObjectInputStream(new ByteArrayInputStream(bytes))) {
            return (Serializable) in.readObject();
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw Exceptions.linked(new MessageFormatException("cannot deserialize the object: " + e), e);
        }
    }

    /**
     * Resolves classes through the thread's context class loader first: in application servers and
     * plugin hosts the payload's classes are visible there but not to the loader of this library.
     */
    private static final class ContextClassLoaderObjectInputStream extends ObjectInputStream {
        ContextClassLoaderObjectInputStream(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            if (context != null) {
                try {
                    return Class.forName(desc.getName(), false, context);
                } catch (ClassNotFoundException e) {
                    // fall through to the default lookup, which also handles primitive types
                }
            }
            return super.resolveClass(desc);
        }
    }

    // ---------------------------------------------------------------- body as a whole

    @Override
    Object bodyValue() throws JMSException {
        return getObject();
    }

    @Override
    void clearBodyContent() {
        serialized = null;
    }

    @Override
    int wireBodyType() {
        return WireMessage.BODY_OBJECT;
    }

    @Override
    byte[] encodeBody() {
        return serialized == null ? null : serialized.clone();
    }

    @Override
    void restoreBody(byte[] body) {
        serialized = body;
        super.restoreBody(body);
    }
}
