package org.partita.ee.context;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;

/**
 * Sends the way Jakarta EE applications do: an injected {@code JMSContext} (the server's default
 * JMS connection factory, pointed at Partita, or the adapter's factory named) and a queue looked up
 * from the adapter's administered objects, in the bean's container transaction.
 */
@Stateless
public class ContextSender {
    @Inject
    private JMSContext byDefault;

    @Inject
    @JMSConnectionFactory("java:/jms/partita/CF")
    private JMSContext named;

    @Resource(lookup = ContextNames.QUEUE)
    private Queue queue;

    @Resource
    private SessionContext ejb;

    public void send(String text, boolean viaDefault, boolean fail) {
        (viaDefault ? byDefault : named)
                .createProducer()
                .setProperty("via", viaDefault ? "default" : "named")
                .send(queue, text);
        if (fail) {
            ejb.setRollbackOnly();
        }
    }
}
