package org.partita.ra.context;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.io.Serializable;
import org.partita.jms.client.ProducerHost;

/**
 * The simplified API inside a Jakarta EE server: a {@code JMSContext} made of one pooled
 * connection of the adapter and its one session, so it keeps every rule those already keep
 * (Jakarta Messaging 3.1, 12.2 and 12.3): in a JTA transaction its work joins it and
 * {@code commit}/{@code rollback} are refused; outside one it acknowledges automatically; no
 * message listeners, exception listeners, client ids or {@code stop()}. Two more rules belong to
 * the context itself: {@link #createContext(int)} is refused (a container's connection has one
 * session) and so is an asynchronous send ({@link ContainerJMSProducer#setAsync}). Closing it closes
 * the session and gives the connection back to the pool.
 */
public final class ContainerJMSContext implements JMSContext {
    private final Connection connection;
    private final Session session;
    private MessageProducer producer;
    /** The last message a consumer of this context returned: what {@link #acknowledge()} acknowledges through. */
    private volatile Message lastReceived;

    private volatile boolean autoStart = true;
    private volatile boolean closed;

    /** A context on {@code connection}, a pooled connection nobody else uses; it opens the connection's session. */
    public ContainerJMSContext(Connection connection, int sessionMode) throws JMSException {
        if (sessionMode < SESSION_TRANSACTED || sessionMode > DUPS_OK_ACKNOWLEDGE) {
            connection.close();
            throw new JMSRuntimeException(
                    "invalid session mode " + sessionMode + "; expected JMSContext.SESSION_TRANSACTED (0),"
                            + " AUTO_ACKNOWLEDGE (1), CLIENT_ACKNOWLEDGE (2) or DUPS_OK_ACKNOWLEDGE (3)");
        }
        this.connection = connection;
        try {
            this.session = connection.createSession(sessionMode);
        } catch (JMSException e) {
            connection.close();
            throw e;
        }
    }

    private Session session() {
        if (closed) {
            throw new IllegalStateRuntimeException("the JMSContext is closed");
        }
        return session;
    }

    /** The context's one anonymous producer, which every {@link JMSProducer} of it sends through. */
    private synchronized MessageProducer producer() {
        Session s = session();
        if (producer == null) {
            producer = Unchecked.call(() -> s.createProducer(null));
        }
        return producer;
    }

    /** What this context's producers send through; asynchronous sends never get this far (ContainerJMSProducer). */
    private final ProducerHost producerHost = new ProducerHost() {
        @Override
        public Session session() {
            return ContainerJMSContext.this.session();
        }

        @Override
        public MessageProducer producer() {
            return ContainerJMSContext.this.producer();
        }

        @Override
        public AsyncSend startAsync(CompletionListener listener) {
            throw new IllegalStateRuntimeException(
                    "asynchronous sends are not allowed in a Jakarta EE web or EJB container");
        }

        @Override
        public String toString() {
            return ContainerJMSContext.this.toString();
        }
    };

    void received(Message m) {
        if (m != null) {
            lastReceived = m;
        }
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        throw new JMSRuntimeException(
                "createContext is not allowed in a Jakarta EE web or EJB container: a connection there"
                        + " has one session (Jakarta Messaging 12.2); get another context from the connection factory");
    }

    @Override
    public JMSProducer createProducer() {
        session();
        return new ContainerJMSProducer(producerHost);
    }

    @Override
    public String getClientID() {
        return Unchecked.call(connection::getClientID);
    }

    @Override
    public void setClientID(String clientID) {
        Unchecked.run(() -> connection.setClientID(clientID));
    }

    @Override
    public ConnectionMetaData getMetaData() {
        return Unchecked.call(connection::getMetaData);
    }

    @Override
    public ExceptionListener getExceptionListener() {
        return Unchecked.call(connection::getExceptionListener);
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        Unchecked.run(() -> connection.setExceptionListener(listener));
    }

    /** The pooled connection is started already. */
    @Override
    public void start() {
        session();
    }

    @Override
    public void stop() {
        Unchecked.run(connection::stop);
    }

    @Override
    public void setAutoStart(boolean autoStart) {
        this.autoStart = autoStart;
    }

    @Override
    public boolean getAutoStart() {
        return autoStart;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            session.close();
        } catch (JMSException e) {
            // the connection closes what its session left open
        }
        Unchecked.run(connection::close);
    }

    // ---- messages -----------------------------------------------------------------------

    @Override
    public BytesMessage createBytesMessage() {
        return Unchecked.call(() -> session().createBytesMessage());
    }

    @Override
    public MapMessage createMapMessage() {
        return Unchecked.call(() -> session().createMapMessage());
    }

    @Override
    public Message createMessage() {
        return Unchecked.call(() -> session().createMessage());
    }

    @Override
    public ObjectMessage createObjectMessage() {
        return Unchecked.call(() -> session().createObjectMessage());
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        return Unchecked.call(() -> session().createObjectMessage(object));
    }

    @Override
    public StreamMessage createStreamMessage() {
        return Unchecked.call(() -> session().createStreamMessage());
    }

    @Override
    public TextMessage createTextMessage() {
        return Unchecked.call(() -> session().createTextMessage());
    }

    @Override
    public TextMessage createTextMessage(String text) {
        return Unchecked.call(() -> session().createTextMessage(text));
    }

    // ---- transactions and acknowledgement -----------------------------------------------

    @Override
    public boolean getTransacted() {
        return Unchecked.call(() -> session().getTransacted());
    }

    @Override
    public int getSessionMode() {
        return Unchecked.call(() -> session().getAcknowledgeMode());
    }

    @Override
    public void commit() {
        Unchecked.run(() -> session().commit());
    }

    @Override
    public void rollback() {
        Unchecked.run(() -> session().rollback());
    }

    @Override
    public void recover() {
        Unchecked.run(() -> session().recover());
    }

    /** Acknowledges what this context's consumers received, in {@code CLIENT_ACKNOWLEDGE} mode; otherwise nothing. */
    @Override
    public void acknowledge() {
        Session s = session();
        Message last = lastReceived;
        if (last != null && Unchecked.call(s::getAcknowledgeMode) == CLIENT_ACKNOWLEDGE) {
            Unchecked.run(last::acknowledge);
        }
    }

    // ---- consumers, browsers, destinations --------------------------------------------

    private JMSConsumer consumer(Unchecked.Call<MessageConsumer> open) {
        session();
        return new ContainerJMSConsumer(this, Unchecked.call(open));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        return consumer(() -> session.createConsumer(destination));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        return consumer(() -> session.createConsumer(destination, messageSelector));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        return consumer(() -> session.createConsumer(destination, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        return consumer(() -> session.createSharedConsumer(topic, sharedSubscriptionName));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        return consumer(() -> session.createSharedConsumer(topic, sharedSubscriptionName, messageSelector));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        return consumer(() -> session.createDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        return consumer(() -> session.createDurableConsumer(topic, name, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        return consumer(() -> session.createSharedDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        return consumer(() -> session.createSharedDurableConsumer(topic, name, messageSelector));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        return Unchecked.call(() -> session().createBrowser(queue));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        return Unchecked.call(() -> session().createBrowser(queue, messageSelector));
    }

    @Override
    public Queue createQueue(String queueName) {
        return Unchecked.call(() -> session().createQueue(queueName));
    }

    @Override
    public Topic createTopic(String topicName) {
        return Unchecked.call(() -> session().createTopic(topicName));
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        return Unchecked.call(() -> session().createTemporaryQueue());
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        return Unchecked.call(() -> session().createTemporaryTopic());
    }

    @Override
    public void unsubscribe(String name) {
        Unchecked.run(() -> session().unsubscribe(name));
    }

    @Override
    public String toString() {
        return "ContainerJMSContext[" + session + (closed ? ", closed" : "") + "]";
    }
}
