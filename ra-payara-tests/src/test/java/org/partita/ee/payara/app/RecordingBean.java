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
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Takes each message of {@code ee.recorded}, records its text in an XA database and forwards it
 * through the pooled factory to {@code ee.recorded.done}, all in the container's transaction; a
 * text starting with {@code fail} makes it fail after both, so the transaction rolls all three back.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "ee.recorded")
        })
public class RecordingBean implements MessageListener {

    @Resource(lookup = PayaraNames.DATA_SOURCE)
    private DataSource database;

    @Resource(lookup = PayaraNames.CONNECTION_FACTORY)
    private ConnectionFactory factory;

    @Override
    public void onMessage(Message message) {
        try {
            String text = ((TextMessage) message).getText();
            try (java.sql.Connection db = database.getConnection();
                    PreparedStatement insert = db.prepareStatement("INSERT INTO HANDLED(TEXT) VALUES (?)")) {
                insert.setString(1, text);
                insert.executeUpdate();
            }
            try (Connection c = factory.createConnection()) {
                Session s = c.createSession();
                s.createProducer(s.createQueue("ee.recorded.done")).send(s.createTextMessage(text));
            }
            if (text.startsWith("fail")) {
                throw new IllegalStateException("failing after the insert and the send: " + text);
            }
        } catch (JMSException | SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
