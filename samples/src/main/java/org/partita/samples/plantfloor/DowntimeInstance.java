package org.partita.samples.plantfloor;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.jms.api.PartitaConsumer;
import org.partita.jms.api.PartitionListener;
import org.partita.samples.support.KeyOrderLedger;
import org.partita.samples.support.Story;

/**
 * One instance of the downtime service: plain JMS on the partitioned queue, plus a partition
 * listener that tells the story of what it was given and gave up. Every instance runs the same
 * code; the node decides which machines each one serves.
 */
final class DowntimeInstance implements AutoCloseable {
    private final String name;
    private final Connection connection;
    private final PartitaConsumer consumer;
    private final AtomicLong applied = new AtomicLong();
    private volatile boolean quiet;

    DowntimeInstance(String name, ConnectionFactory factory, Queue downtime, KeyOrderLedger records, Story story)
            throws JMSException {
        this.name = name;
        connection = factory.createConnection();
        // AUTO_ACKNOWLEDGE: a change is acknowledged when onMessage returns, handed back if it throws
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        consumer = (PartitaConsumer) session.createConsumer(downtime);
        consumer.setPartitionListener(new PartitionListener() {
            @Override
            public void onPartitionsAssigned(Set<Integer> partitions) {
                if (!quiet) {
                    story.say("%s takes partitions %s", name, new TreeSet<>(partitions));
                }
            }

            @Override
            public void onPartitionsRevoked(Set<Integer> partitions) {
                if (!quiet) {
                    story.say("%s hands off partitions %s", name, new TreeSet<>(partitions));
                }
            }
        });
        consumer.setMessageListener(message -> {
            try {
                String machine = message.getStringProperty("JMSXGroupID");
                int seq = message.getIntProperty("seq");
                // a change redelivered after a handoff is recognised and ignored by the ledger
                if (records.apply(machine, seq, message.getJMSRedelivered())
                        != KeyOrderLedger.Applied.DUPLICATE_IGNORED) {
                    applied.incrementAndGet();
                }
            } catch (JMSException e) {
                throw new RuntimeException(e); // the listener fails: the message is redelivered
            }
        });
        connection.start();
    }

    String name() {
        return name;
    }

    long applied() {
        return applied.get();
    }

    Set<Integer> ownedPartitions() {
        try {
            return new TreeSet<>(consumer.getOwnedPartitions());
        } catch (JMSException e) {
            throw new IllegalStateException(name + " cannot tell its partitions", e);
        }
    }

    /** Stops telling the story of partition moves (when the whole service shuts down). */
    void quiet() {
        quiet = true;
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }
}
