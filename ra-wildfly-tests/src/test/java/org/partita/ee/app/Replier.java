package org.partita.ee.app;

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
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Writes a row to the database and sends a reply, in one XA transaction with the consumption of
 * the request; a request whose text contains {@code fail} fails after both, so neither happens.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "ee.requests"),
            @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")
        })
public class Replier implements MessageListener {

    @Resource(lookup = AppNames.CONNECTION_FACTORY)
    private ConnectionFactory factory;

    @Resource(lookup = AppNames.DATA_SOURCE)
    private DataSource database;

    @Override
    public void onMessage(Message message) {
        try {
            String text = ((TextMessage) message).getText();
            try (java.sql.Connection db = database.getConnection();
                    PreparedStatement insert = db.prepareStatement("INSERT INTO REQUESTS(TEXT) VALUES(?)")) {
                insert.setString(1, text);
                insert.executeUpdate();
            }
            try (Connection c = factory.createConnection()) {
                Session s = c.createSession();
                s.createProducer(s.createQueue("ee.replies")).send(s.createTextMessage("reply to " + text));
            }
            if (text.contains("fail")) {
                throw new IllegalStateException("failing after the insert and the reply");
            }
        } catch (JMSException | SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
