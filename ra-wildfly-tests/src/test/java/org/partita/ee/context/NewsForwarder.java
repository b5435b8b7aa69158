package org.partita.ee.context;

import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;

/** A topic bean that forwards each publication, through an injected JMSContext, to a queue of its own. */
abstract class NewsForwarder implements MessageListener {
    @Inject
    private JMSContext context;

    /** The queue this bean forwards to. */
    abstract String target();

    @Override
    public void onMessage(Message message) {
        try {
            context.createProducer().send(context.createQueue(target()), ((TextMessage) message).getText());
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
