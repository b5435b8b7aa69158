package org.partita.jms.message;

import jakarta.jms.JMSException;

/** JMSException predates exception chaining; set both links so every kind of caller sees the cause. */
final class Exceptions {
    private Exceptions() {}

    static <E extends JMSException> E linked(E e, Exception cause) {
        e.setLinkedException(cause);
        e.initCause(cause);
        return e;
    }
}
