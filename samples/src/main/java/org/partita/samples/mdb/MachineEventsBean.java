package org.partita.samples.mdb;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;

/**
 * The second source document's scenario: "the simplest and recommended way of configuring
 * consumers to every partition of a partitioned queue is by installing a message-driven bean".
 * Deployed with the Partita resource adapter, this bean gets one endpoint consumer per partition
 * of {@code machine-events} (8): every partition is served, and each machine's events reach it in
 * the order they were sent, in a container transaction per event.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            // the queue is created with 8 partitions if this bean is the first to name it
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "machine-events?partitions=8")
        })
public class MachineEventsBean implements MessageListener {

    @EJB
    private MachineLedger ledger;

    @Override
    public void onMessage(Message message) {
        try {
            String machine = message.getStringProperty("JMSXGroupID");
            int sequence = Integer.parseInt(((TextMessage) message).getText());
            ledger.record(machine, sequence, Thread.currentThread().getName());
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
