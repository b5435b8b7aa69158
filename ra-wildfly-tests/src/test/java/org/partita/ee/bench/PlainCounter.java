package org.partita.ee.bench;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Partita, no transaction: each message acknowledged when the bean returns. */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "bench.plain?partitions=8")
        })
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class PlainCounter implements MessageListener {
    @Override
    public void onMessage(Message message) {
        Tally.of("partita-plain").consumed();
    }
}
