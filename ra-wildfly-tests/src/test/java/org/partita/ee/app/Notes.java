package org.partita.ee.app;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

/** Writes a note to {@code ee.notes} in a transaction of its own, which the caller's rollback does not undo. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class Notes {

    @Resource(lookup = AppNames.CONNECTION_FACTORY)
    private ConnectionFactory factory;

    public void note(String text, int deliveryCount) {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession();
            TextMessage m = s.createTextMessage(text);
            m.setIntProperty("deliveryCount", deliveryCount);
            s.createProducer(s.createQueue("ee.notes")).send(m);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
