package org.partita.ee.crash;

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
 * Takes each message of {@code ee.crash}, records its text in a database table and forwards it to
 * {@code ee.crash.done} through the pooled connection factory: three XA branches (the receive, the
 * send, the insert) in the container's transaction, which the crash test interrupts between its two
 * phases.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = RecordingForwarder.QUEUE)
        })
public class RecordingForwarder implements MessageListener {
    public static final String QUEUE = "ee.crash";
    public static final String DONE = "ee.crash.done";
    public static final String DATA_SOURCE = "java:/jdbc/partita-crash";
    public static final String TABLE = "handled";

    @Resource(lookup = DATA_SOURCE)
    private DataSource database;

    @Resource(lookup = "java:/jms/partita/CF")
    private ConnectionFactory factory;

    @Override
    public void onMessage(Message message) {
        try {
            String text = ((TextMessage) message).getText();
            try (java.sql.Connection db = database.getConnection();
                    PreparedStatement insert = db.prepareStatement("insert into " + TABLE + "(text) values (?)")) {
                insert.setString(1, text);
                insert.executeUpdate();
            }
            try (Connection c = factory.createConnection()) {
                Session s = c.createSession();
                s.createProducer(s.createQueue(DONE)).send(s.createTextMessage(text));
            }
        } catch (JMSException | SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
