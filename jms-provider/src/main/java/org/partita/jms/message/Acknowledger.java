package org.partita.jms.message;

import jakarta.jms.JMSException;

/**
 * What {@link jakarta.jms.Message#acknowledge()} does for one received message. The message itself
 * knows nothing about sessions; the consumer that delivered it installs this hook so that the
 * acknowledgement reaches the right session (which, per the spec, acknowledges every message it
 * has delivered so far, not only this one).
 */
@FunctionalInterface
public interface Acknowledger {
    void acknowledge() throws JMSException;
}
