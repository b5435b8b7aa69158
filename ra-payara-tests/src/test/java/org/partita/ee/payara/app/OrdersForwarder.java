package org.partita.ee.payara.app;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

/**
 * Consumes the 8-partition queue {@code ee.orders} and forwards each message, in the same XA
 * transaction, through the pooled connection factory to {@code ee.processed}, saying which thread
 * handled it and which partition it came from.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "ee.orders")
        })
public class OrdersForwarder implements MessageListener {

    @Resource(lookup = PayaraNames.CONNECTION_FACTORY)
    private ConnectionFactory factory;

    @Override
    public void onMessage(Message message) {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession();
            TextMessage out = s.createTextMessage(((TextMessage) message).getText());
            out.setStringProperty("JMSXGroupID", message.getStringProperty("JMSXGroupID"));
            out.setStringProperty("handledBy", Thread.currentThread().getName());
            out.setIntProperty("partition", message.getIntProperty("JMS_PARTITA_Partition"));
            s.createProducer(s.createQueue("ee.processed")).send(out);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
