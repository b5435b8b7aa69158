package org.partita.jms.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.io.ByteArrayOutputStream;
import java.util.Enumeration;

/**
 * Copies a message created by another provider into a Partita message, which the spec requires a
 * producer to accept (section 3.12, "Provider implementations of JMS message interfaces"). Only the
 * public JMS API of the foreign message is used.
 */
public final class ForeignMessages {
    private ForeignMessages() {}

    /**
     * A writable Partita message with the same body, headers and properties (JMSXDeliveryCount
     * excepted: it belongs to a delivery, not to the message). Destinations are converted by name.
     *
     * <p>Bytes and stream bodies can only be read through the foreign message's cursor, so such a
     * message is {@code reset()} before and after copying: it ends in read-only mode at the start
     * of its body, as its own provider would leave it after a send.
     */
    public static PartitaMessage copyOf(Message foreign) throws JMSException {
        PartitaMessage copy = copyBody(foreign);
        copyHeaders(foreign, copy);
        copyProperties(foreign, copy);
        return copy;
    }

    private static PartitaMessage copyBody(Message foreign) throws JMSException {
        if (foreign instanceof TextMessage text) {
            return new PartitaTextMessage(text.getText());
        }
        if (foreign instanceof BytesMessage bytes) {
            PartitaBytesMessage copy = new PartitaBytesMessage();
            copy.writeBytes(readAll(bytes));
            return copy;
        }
        if (foreign instanceof MapMessage map) {
            PartitaMapMessage copy = new PartitaMapMessage();
            for (Enumeration<?> names = map.getMapNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                copy.setObject(name, map.getObject(name));
            }
            return copy;
        }
        if (foreign instanceof StreamMessage stream) {
            PartitaStreamMessage copy = new PartitaStreamMessage();
            stream.reset();
            try {
                while (true) {
                    copy.writeObject(stream.readObject());
                }
            } catch (MessageEOFException endOfStream) {
                // every value copied
            } finally {
                stream.reset();
            }
            return copy;
        }
        if (foreign instanceof ObjectMessage object) {
            return new PartitaObjectMessage(object.getObject());
        }
        return new PartitaMessage();
    }

    private static byte[] readAll(BytesMessage bytes) throws JMSException {
        bytes.reset();
        try {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            for (int n; (n = bytes.readBytes(chunk)) > 0; ) {
                all.write(chunk, 0, n);
            }
            return all.toByteArray();
        } finally {
            bytes.reset();
        }
    }

    private static void copyHeaders(Message foreign, PartitaMessage copy) throws JMSException {
        copy.setJMSMessageID(foreign.getJMSMessageID());
        copy.setJMSTimestamp(foreign.getJMSTimestamp());
        copy.setJMSCorrelationID(foreign.getJMSCorrelationID());
        copy.setJMSReplyTo(foreign.getJMSReplyTo());
        copy.setJMSDestination(foreign.getJMSDestination());
        copy.setJMSDeliveryMode(foreign.getJMSDeliveryMode());
        copy.setJMSRedelivered(foreign.getJMSRedelivered());
        copy.setJMSType(foreign.getJMSType());
        copy.setJMSExpiration(foreign.getJMSExpiration());
        copy.setJMSDeliveryTime(foreign.getJMSDeliveryTime());
        copy.setJMSPriority(foreign.getJMSPriority());
    }

    private static void copyProperties(Message foreign, PartitaMessage copy) throws JMSException {
        for (Enumeration<?> names = foreign.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            if (!PartitaMessage.DELIVERY_COUNT.equals(name)) {
                copy.setObjectProperty(name, foreign.getObjectProperty(name));
            }
        }
    }
}
