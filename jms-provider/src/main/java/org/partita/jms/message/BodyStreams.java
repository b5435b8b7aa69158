package org.partita.jms.message;

import jakarta.jms.JMSException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** What the message types whose body can be a stream (bytes and stream messages) share about it. */
final class BodyStreams {
    private BodyStreams() {}

    /** A received large body from its start. */
    static InputStream open(LargeBody large) throws JMSException {
        try {
            return large.open();
        } catch (IOException e) {
            throw Exceptions.linked(new JMSException("cannot read the large body: " + e.getMessage()), e);
        }
    }

    /** Writes the body to {@code target}: the large body if there is one, else {@code whole}; returns once written. */
    static void save(LargeBody large, byte[] whole, OutputStream target) throws JMSException {
        try {
            if (large != null) {
                large.copyTo(target);
            } else {
                target.write(whole);
                target.flush();
            }
        } catch (IOException e) {
            throw Exceptions.linked(new JMSException("cannot write the body to the stream: " + e.getMessage()), e);
        }
    }
}
