package org.partita.samples.priority;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import org.partita.jms.api.PartitaDestinations;

/**
 * One instance of the job service. The only difference between the primary and the backup is the
 * priority in the queue name: the node gives messages only to the highest priority present.
 */
final class JobWorker implements AutoCloseable {
    private final Connection connection;

    /** Attaches {@code name} to {@code jobs} with {@code priority}, noting in {@code log} who did each job. */
    JobWorker(String name, int priority, ConnectionFactory factory, Queue jobs, JobLog log) throws JMSException {
        connection = factory.createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue withPriority =
                PartitaDestinations.withOption(jobs, "priority", String.valueOf(priority)); // jobs?priority=10
        session.createConsumer(withPriority).setMessageListener(m -> {
            try {
                log.done(m.getIntProperty("job"), name, m.getJMSRedelivered());
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        connection.start();
    }

    /** The instance shuts down: what it held unacknowledged goes back to the queue. */
    @Override
    public void close() throws JMSException {
        connection.close();
    }
}
