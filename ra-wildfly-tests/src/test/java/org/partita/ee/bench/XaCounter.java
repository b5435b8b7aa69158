package org.partita.ee.bench;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Partita, XA: each message consumed in a container transaction. */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "bench.xa?partitions=8")
        })
public class XaCounter implements MessageListener {
    @Override
    public void onMessage(Message message) {
        Tally.of("partita-xa").consumed();
    }
}
