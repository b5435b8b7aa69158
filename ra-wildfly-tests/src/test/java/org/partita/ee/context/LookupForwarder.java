package org.partita.ee.context;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;

/** Consumes the administered queue named by {@code destinationLookup} and forwards through an injected JMSContext. */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = ContextNames.LOOKUP_QUEUE)
        })
public class LookupForwarder implements MessageListener {
    @Inject
    private JMSContext context;

    @Override
    public void onMessage(Message message) {
        try {
            context.createProducer()
                    .send(context.createQueue("ee.lookup.done"), "forwarded " + ((TextMessage) message).getText());
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
