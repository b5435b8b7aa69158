package org.partita.ee.bench;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** WildFly's own messaging (ActiveMQ Artemis resource adapter, in-VM), no transaction. */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "java:/jms/queue/benchPlain"),
            @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")
        })
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ArtemisPlainCounter implements MessageListener {
    @Override
    public void onMessage(Message message) {
        Tally.of("artemis-plain").consumed();
    }
}
