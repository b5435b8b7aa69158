package org.partita.ee.payara.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Consumes the queue the administered object {@code jms/queue/ee.lookup} names (activation property
 * {@code destinationLookup}) and forwards each message to {@code ee.lookup.done} through an injected
 * {@code JMSContext}, in the bean's transaction.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = PayaraNames.LOOKUP_QUEUE)
        })
public class LookupForwarder implements MessageListener {

    @Inject
    @JMSConnectionFactory(PayaraNames.CONNECTION_FACTORY)
    private JMSContext context;

    @Override
    public void onMessage(Message message) {
        Relay.text(context, message, "ee.lookup.done");
    }
}
