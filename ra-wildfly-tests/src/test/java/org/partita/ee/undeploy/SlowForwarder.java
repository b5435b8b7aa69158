package org.partita.ee.undeploy;

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
 * A bean that works 50 ms on each message of the 4-partition queue {@code ee.undeploy}, then
 * forwards it in the same XA transaction to {@code ee.undeploy.done}, saying whether it came
 * flagged as redelivered: what the undeploy test counts.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "ee.undeploy")
        })
public class SlowForwarder implements MessageListener {
    public static final String QUEUE = "ee.undeploy";
    public static final String DONE = "ee.undeploy.done";

    @Resource(lookup = "java:/jms/partita/CF")
    private ConnectionFactory factory;

    @Override
    public void onMessage(Message message) {
        try {
            Thread.sleep(50); // the bean's work: a slow listener on purpose
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted at work", e);
        }
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession();
            TextMessage out = s.createTextMessage(((TextMessage) message).getText());
            out.setBooleanProperty("redelivered", message.getJMSRedelivered());
            s.createProducer(s.createQueue(DONE)).send(out);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
