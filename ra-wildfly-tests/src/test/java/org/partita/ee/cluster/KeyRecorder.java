package org.partita.ee.cluster;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * Consumes the clustered queue {@code ee.cluster} (6 partitions on every node of a three-node
 * cluster, each kept on all three) and records every message it is handed, in the order it is
 * handed them: its key, its sequence number, whether it came flagged redelivered, and which bean
 * instance took it. Outside any transaction: each message is acknowledged once the bean returns,
 * after its row is committed, so a message lost by the cluster is a row missing and a message
 * handed out again is a second row.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = KeyRecorder.DEFINITION)
        })
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class KeyRecorder implements MessageListener {
    public static final String QUEUE = "ee.cluster";
    public static final int PARTITIONS = 6;
    public static final String DEFINITION = QUEUE + "?partitions=6&hosts=*&replicas=3";
    public static final String DATA_SOURCE = "java:/jdbc/partita-cluster";
    public static final String TABLE = "arrivals";

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final int instance = INSTANCES.incrementAndGet();

    @Resource(lookup = DATA_SOURCE)
    private DataSource database;

    @Override
    public void onMessage(Message message) {
        try (Connection db = database.getConnection();
                PreparedStatement insert = db.prepareStatement(
                        "insert into " + TABLE + "(msg_key, seq, redelivered, instance) values (?, ?, ?, ?)")) {
            insert.setString(1, message.getStringProperty("JMSXGroupID"));
            insert.setInt(2, message.getIntProperty("seq"));
            insert.setBoolean(3, message.getJMSRedelivered());
            insert.setInt(4, instance);
            insert.executeUpdate();
        } catch (JMSException | SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
