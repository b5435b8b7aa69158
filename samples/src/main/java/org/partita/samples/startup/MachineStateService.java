package org.partita.samples.startup;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import java.util.Enumeration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A service that must know where every machine stands before it processes changes: on start it
 * browses the last value queue (which leaves the messages there) and only then consumes the
 * change queue, skipping the changes it already knows from the browse.
 */
final class MachineStateService implements AutoCloseable {
    /** A machine's state and the number of the change that set it. */
    record MachineState(String state, int seq) {}

    private final Connection connection;
    private final Map<String, MachineState> current = new ConcurrentHashMap<>();
    private final AtomicInteger alreadyKnown = new AtomicInteger();
    private final AtomicInteger applied = new AtomicInteger();
    private final AtomicInteger gaps = new AtomicInteger();

    MachineStateService(ConnectionFactory factory) throws JMSException {
        connection = factory.createConnection();
    }

    /** Step 1: reads every machine's newest state from the last value queue; returns how many messages it browsed. */
    int loadCurrentState(Queue lastValues) throws JMSException {
        int browsed = 0;
        try (Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                QueueBrowser browser = session.createBrowser(lastValues)) {
            Enumeration<?> messages = browser.getEnumeration();
            while (messages.hasMoreElements()) {
                Message m = (Message) messages.nextElement();
                current.put(
                        m.getStringProperty("machine"),
                        new MachineState(m.getBody(String.class), m.getIntProperty("seq")));
                browsed++;
            }
        }
        return browsed;
    }

    /** Step 2: applies the changes newer than what it knows, from the change queue. */
    void followChanges(Queue changes) throws JMSException {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(changes);
        consumer.setMessageListener(m -> {
            try {
                apply(
                        m.getStringProperty("machine"),
                        new MachineState(m.getBody(String.class), m.getIntProperty("seq")));
            } catch (JMSException e) {
                throw new RuntimeException(e); // handed back and redelivered
            }
        });
        connection.start();
    }

    private void apply(String machine, MachineState change) {
        // the change queue still holds what was published while the service was down: those
        // changes are no newer than what the browse showed (the per-machine counter tells; two
        // quick changes can share a JMSTimestamp)
        MachineState known = current.get(machine);
        int knownSeq = known == null ? 0 : known.seq();
        if (change.seq() <= knownSeq) {
            alreadyKnown.incrementAndGet();
            return;
        }
        if (change.seq() != knownSeq + 1) {
            gaps.incrementAndGet();
        }
        current.put(machine, change);
        applied.incrementAndGet();
    }

    /** What the service believes now, sorted by machine. */
    Map<String, MachineState> current() {
        return new TreeMap<>(current);
    }

    int alreadyKnown() {
        return alreadyKnown.get();
    }

    int applied() {
        return applied.get();
    }

    /** Changes that came with an earlier one missing: the service would have missed a state. */
    int gaps() {
        return gaps.get();
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }
}
