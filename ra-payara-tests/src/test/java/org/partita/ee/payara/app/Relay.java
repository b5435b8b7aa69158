package org.partita.ee.payara.app;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;

/** What the forwarding beans do with a message: its text sent on to a queue, in the bean's transaction. */
final class Relay {
    private Relay() {}

    static void text(JMSContext context, Message message, String queue) {
        try {
            context.createProducer().send(context.createQueue(queue), ((TextMessage) message).getText());
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
