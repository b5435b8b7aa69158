package org.partita.ee.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;

/**
 * Notes every attempt (in a transaction of its own), then fails on a message whose text is
 * {@code poison}: its transaction rolls back and the message is delivered again, until the queue's
 * limit sends it to the dead-letter queue.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "ee.poison"),
            @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "1")
        })
public class PoisonListener implements MessageListener {

    @EJB
    private Notes notes;

    @Override
    public void onMessage(Message message) {
        try {
            String text = ((TextMessage) message).getText();
            notes.note(text, message.getIntProperty("JMSXDeliveryCount"));
            if (text.equals("poison")) {
                throw new IllegalStateException("this message always fails");
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
