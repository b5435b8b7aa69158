package org.partita.ee.payara.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Fails on every message of {@code ee.poison}: the container rolls the delivery back each time. */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "ee.poison")
        })
public class PoisonBean implements MessageListener {
    @Override
    public void onMessage(Message message) {
        throw new IllegalStateException("this bean cannot handle " + message);
    }
}
