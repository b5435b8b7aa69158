package org.partita.broker.it.partition;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test consumer of a partitioned queue on its own connection: records each message it processes
 * (key, sequence, redelivered) in a shared journal, then acknowledges it, as an idempotent
 * ordered consumer would.
 */
final class KeyedConsumer implements AutoCloseable {
    record Processed(String key, int seq, boolean redelivered, String consumer) {}

    private final Connection connection;
    private final Thread thread;
    private final AtomicBoolean running = new AtomicBoolean(true);
    final AtomicInteger received = new AtomicInteger();
    final String name;

    KeyedConsumer(ConnectionFactory cf, String queue, String name, List<Processed> journal) throws Exception {
        this.name = name;
        this.connection = cf.createConnection();
        Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
        connection.start();
        thread = new Thread(
                () -> {
                    try {
                        while (running.get()) {
                            Message m = consumer.receive(100);
                            if (m == null) {
                                continue;
                            }
                            synchronized (journal) {
                                journal.add(new Processed(
                                        m.getStringProperty("JMSXGroupID"),
                                        m.getIntProperty("seq"),
                                        m.getJMSRedelivered(),
                                        name));
                            }
                            received.incrementAndGet();
                            m.acknowledge();
                        }
                    } catch (Exception e) {
                        if (running.get()) {
                            e.printStackTrace();
                        }
                    }
                },
                "consumer-" + name);
        thread.start();
    }

    @Override
    public void close() throws Exception {
        running.set(false);
        thread.join(5000);
        connection.close();
    }
}
