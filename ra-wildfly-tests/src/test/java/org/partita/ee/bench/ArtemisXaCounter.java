package org.partita.ee.bench;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** WildFly's own messaging (ActiveMQ Artemis resource adapter, in-VM), XA. */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "java:/jms/queue/benchXa"),
            @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")
        })
public class ArtemisXaCounter implements MessageListener {
    @Override
    public void onMessage(Message message) {
        Tally.of("artemis-xa").consumed();
    }
}
