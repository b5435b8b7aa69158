package org.partita.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import java.io.InputStream;
import java.io.OutputStream;
import org.partita.jms.api.PartitaProperties;

/**
 * The names under which an application hands a message a stream, in the manner of Artemis's
 * {@code JMS_AMQ_InputStream}: they look like properties but are not kept as such.
 */
final class LargeStreams {
    private LargeStreams() {}

    static boolean isStreamName(String name) {
        return PartitaProperties.INPUT_STREAM.equals(name)
                || PartitaProperties.SAVE_STREAM.equals(name)
                || PartitaProperties.OUTPUT_STREAM.equals(name);
    }

    static void apply(PartitaMessage message, String name, Object value) throws JMSException {
        if (PartitaProperties.INPUT_STREAM.equals(name)) {
            if (!(value instanceof InputStream in)) {
                throw new MessageFormatException(name + " takes a java.io.InputStream, not "
                        + (value == null ? "null" : value.getClass().getName()));
            }
            message.bodyFrom(in);
            return;
        }
        if (!(value instanceof OutputStream out)) {
            throw new MessageFormatException(name + " takes a java.io.OutputStream, not "
                    + (value == null ? "null" : value.getClass().getName()));
        }
        message.saveBodyTo(out); // both names wait until it is written: the body is here already
    }
}
