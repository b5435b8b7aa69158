package org.partita.ee.app;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;

/** Sends in the container's transaction; when asked to fail after the send, the transaction rolls back. */
@Stateless
public class Sender {

    @Resource(lookup = AppNames.CONNECTION_FACTORY)
    private ConnectionFactory factory;

    public void send(String text, boolean fail) {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createQueue("ee.sent")).send(s.createTextMessage(text));
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
        if (fail) {
            throw new IllegalStateException("failing after the send: the container rolls the transaction back");
        }
    }
}
