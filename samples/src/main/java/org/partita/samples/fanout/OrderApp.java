package org.partita.samples.fanout;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * One application reading the fan-out queue under its own AppId, at its own pace: it takes
 * {@code millisPerOrder} for each order and acknowledges it when done.
 */
final class OrderApp implements AutoCloseable {
    private final String appId;
    private final List<Integer> received = new ArrayList<>();
    private final Connection connection;

    /** Attaches to {@code queue}, a name that carries the AppId ({@code orders?appId=billing}). */
    OrderApp(String appId, ConnectionFactory factory, Queue queue, long millisPerOrder) throws JMSException {
        this.appId = appId;
        connection = factory.createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createConsumer(queue).setMessageListener(m -> {
            try {
                Thread.sleep(millisPerOrder);
                synchronized (received) {
                    received.add(m.getIntProperty("order"));
                }
            } catch (JMSException e) {
                throw new RuntimeException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeException(e);
            }
        });
        connection.start();
    }

    String appId() {
        return appId;
    }

    /** The order numbers received, in the order they arrived. */
    List<Integer> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    int count() {
        synchronized (received) {
            return received.size();
        }
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }
}
