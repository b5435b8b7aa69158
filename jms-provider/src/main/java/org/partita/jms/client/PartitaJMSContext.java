package org.partita.jms.client;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
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
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.io.Serializable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The simplified API's connection-plus-session (JMS 2.0 chapter 8), built on the classic facade.
 *
 * <p>A context made by the connection factory owns a new {@link PartitaConnection}; {@link #createContext(int)}
 * makes further contexts on the same connection, which is closed when the last context using it closes. Each
 * context has one {@link PartitaSession}, opened on first use rather than at creation, so that
 * {@link #setClientID} can still be called first, as the spec allows. Every JMSException of the facade reaches the
 * caller as its unchecked counterpart ({@link JmsRuntimeExceptions}).
 *
 * <p>Like a session, a context is for one thread at a time.
 */
public class PartitaJMSContext implements JMSContext {
    private static final long CALLBACK_WAIT_NANOS = TimeUnit.SECONDS.toNanos(JmsExceptions.REQUEST_TIMEOUT_SECONDS);

    private final SharedConnection shared;
    private final int sessionMode;
    private final Object lock = new Object();
    /** What this context's JMSProducers send through. */
    private final ProducerHost producerHost = new ProducerHost() {
        @Override
        public PartitaSession session() {
            return PartitaJMSContext.this.session();
        }

        @Override
        public PartitaMessageProducer producer() {
            return PartitaJMSContext.this.producer();
        }

        @Override
        public AsyncSend startAsync(CompletionListener listener) {
            return track(listener);
        }

        @Override
        public String toString() {
            return PartitaJMSContext.this.toString();
        }
    };

    private volatile PartitaSession session;
    private PartitaMessageProducer producer;
    private volatile boolean autoStart = true;
    private volatile boolean closed;

    /** Completion listeners of asynchronous sends that have not returned yet. */
    private final Object callbacks = new Object();

    private int pendingCallbacks;
    /** The thread running one of this context's completion listeners, if any. */
    private volatile Thread callbackThread;

    /** A context that owns {@code connection}, a connection nobody else uses. */
    PartitaJMSContext(PartitaConnection connection, int sessionMode) {
        this(new SharedConnection(connection), sessionMode);
    }

    private PartitaJMSContext(SharedConnection shared, int sessionMode) {
        checkSessionMode(sessionMode);
        this.shared = shared;
        this.sessionMode = sessionMode;
    }

    static void checkSessionMode(int mode) {
        if (mode != SESSION_TRANSACTED
                && mode != AUTO_ACKNOWLEDGE
                && mode != CLIENT_ACKNOWLEDGE
                && mode != DUPS_OK_ACKNOWLEDGE) {
            throw new JMSRuntimeException(
                    "invalid session mode " + mode + "; expected JMSContext.SESSION_TRANSACTED (0),"
                            + " AUTO_ACKNOWLEDGE (1), CLIENT_ACKNOWLEDGE (2) or DUPS_OK_ACKNOWLEDGE (3)");
        }
    }

    // ---- plumbing shared with the producer and consumers -----------------------------------

    void checkOpen() {
        if (closed) {
            throw new IllegalStateRuntimeException("the JMSContext is closed");
        }
    }

    /** The context's session, opened on first use. */
    PartitaSession session() {
        checkOpen();
        PartitaSession s = session;
        if (s != null) {
            return s;
        }
        synchronized (lock) {
            checkOpen();
            if (session == null) {
                try {
                    session = openSession(shared.connection);
                } catch (JMSException e) {
                    throw JmsRuntimeExceptions.convert(e);
                }
            }
            return session;
        }
    }

    /** Opens the context's session on its connection; an XA context opens an XA session. */
    PartitaSession openSession(PartitaConnection connection) throws JMSException {
        return (PartitaSession) connection.createSession(sessionMode);
    }

    /** The one producer without a destination that every JMSProducer of this context sends through. */
    PartitaMessageProducer producer() {
        PartitaSession s = session();
        synchronized (lock) {
            checkOpen();
            if (producer == null) {
                try {
                    producer = (PartitaMessageProducer) s.createProducer(null);
                } catch (JMSException e) {
                    throw JmsRuntimeExceptions.convert(e);
                }
            }
            return producer;
        }
    }

    /**
     * Wraps the completion listener of one asynchronous send so that close, commit and rollback can wait for it
     * to return and can tell when they are called from inside it. The caller must {@link Tracked#abandon()} it if
     * the send throws (then the listener is never called).
     */
    private Tracked track(CompletionListener listener) {
        synchronized (callbacks) {
            pendingCallbacks++;
        }
        return new Tracked(listener);
    }

    private final class Tracked implements ProducerHost.AsyncSend {
        private final CompletionListener delegate;
        private final AtomicBoolean done = new AtomicBoolean();

        private Tracked(CompletionListener delegate) {
            this.delegate = delegate;
        }

        @Override
        public void onCompletion(Message message) {
            callbackThread = Thread.currentThread();
            try {
                delegate.onCompletion(message);
            } finally {
                callbackThread = null;
                abandon();
            }
        }

        @Override
        public void onException(Message message, Exception exception) {
            callbackThread = Thread.currentThread();
            try {
                delegate.onException(message, exception);
            } finally {
                callbackThread = null;
                abandon();
            }
        }

        /** This send's listener will not (or no longer) run. */
        @Override
        public void abandon() {
            if (done.compareAndSet(false, true)) {
                synchronized (callbacks) {
                    pendingCallbacks--;
                    callbacks.notifyAll();
                }
            }
        }
    }

    /** Waits until every completion listener of an earlier asynchronous send has returned. */
    private void awaitCallbacks() {
        PartitaSession s = session;
        if (callbackThread == Thread.currentThread() || (s != null && s.inCompletionListener())) {
            return; // the other callbacks queue behind the one that is running on this very thread
        }
        long deadline = System.nanoTime() + CALLBACK_WAIT_NANOS;
        synchronized (callbacks) {
            while (pendingCallbacks > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(callbacks, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void refuseInCompletionListener(String what) {
        if (callbackThread == Thread.currentThread()) {
            throw new IllegalStateRuntimeException(
                    "a completion listener may not call " + what + " on its own JMSContext");
        }
    }

    // ---- contexts and connection ----------------------------------------------------------

    @Override
    public JMSContext createContext(int sessionMode) {
        checkOpen();
        checkSessionMode(sessionMode);
        shared.acquire();
        return new PartitaJMSContext(shared, sessionMode);
    }

    @Override
    public String getClientID() {
        checkOpen();
        try {
            return shared.connection.getClientID();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void setClientID(String clientID) {
        checkOpen();
        try {
            shared.connection.setClientID(clientID);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public ConnectionMetaData getMetaData() {
        checkOpen();
        try {
            return shared.connection.getMetaData();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public ExceptionListener getExceptionListener() {
        checkOpen();
        try {
            return shared.connection.getExceptionListener();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        checkOpen();
        try {
            shared.connection.setExceptionListener(listener);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void start() {
        checkOpen();
        try {
            shared.connection.start();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void stop() {
        checkOpen();
        try {
            shared.connection.stop();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void setAutoStart(boolean autoStart) {
        checkOpen();
        this.autoStart = autoStart;
    }

    @Override
    public boolean getAutoStart() {
        return autoStart;
    }

    /**
     * Closes the session (waiting for listeners and asynchronous sends, whose completion listeners return first)
     * and, if no other context uses it, the connection. Refused from a message or completion listener of this
     * context; a closed context closes without complaint.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        PartitaSession s = session;
        if (callbackThread == Thread.currentThread() || (s != null && s.inListener())) {
            throw new IllegalStateRuntimeException(
                    "a message listener or completion listener may not close its own JMSContext");
        }
        awaitCallbacks(); // while they run, the context is still fully theirs
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            s = session;
        }
        JMSException failure = null;
        try {
            if (s != null) {
                s.close();
            }
        } catch (JMSException e) {
            failure = e;
        }
        try {
            shared.release();
        } catch (JMSException e) {
            if (failure == null) {
                failure = e;
            }
        }
        if (failure != null) {
            throw JmsRuntimeExceptions.convert(failure);
        }
    }

    // ---- session: modes, transactions, acknowledgement ------------------------------------

    @Override
    public boolean getTransacted() {
        try {
            return session().getTransacted();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public int getSessionMode() {
        try {
            return session().getAcknowledgeMode();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void commit() {
        PartitaSession s = session();
        refuseInCompletionListener("commit");
        if (sessionMode == SESSION_TRANSACTED) {
            awaitCallbacks();
        }
        try {
            s.commit();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void rollback() {
        PartitaSession s = session();
        refuseInCompletionListener("rollback");
        if (sessionMode == SESSION_TRANSACTED) {
            awaitCallbacks();
        }
        try {
            s.rollback();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void recover() {
        try {
            session().recover();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    /** Acknowledges every message this context has consumed; does nothing unless in CLIENT_ACKNOWLEDGE mode. */
    @Override
    public void acknowledge() {
        checkOpen();
        PartitaSession s = session;
        if (sessionMode != CLIENT_ACKNOWLEDGE || s == null) {
            return;
        }
        try {
            s.acknowledgeAll();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    // ---- producers and consumers ------------------------------------------------------------

    @Override
    public JMSProducer createProducer() {
        producer();
        return new PartitaJMSProducer(producerHost);
    }

    @FunctionalInterface
    private interface ConsumerOpener {
        MessageConsumer open(PartitaSession session) throws JMSException;
    }

    /** Opens a consumer and, with auto-start on, starts the connection (JMS 2.0 section 6.1.5). */
    private JMSConsumer consumer(ConsumerOpener opener) {
        PartitaSession s = session();
        try {
            PartitaMessageConsumer c = (PartitaMessageConsumer) opener.open(s);
            if (autoStart) {
                shared.connection.start();
            }
            return new PartitaJMSConsumer(c);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        return consumer(s -> s.createConsumer(destination));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        return consumer(s -> s.createConsumer(destination, messageSelector));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        return consumer(s -> s.createConsumer(destination, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        return consumer(s -> s.createDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        return consumer(s -> s.createDurableConsumer(topic, name, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        return consumer(s -> s.createSharedDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        return consumer(s -> s.createSharedDurableConsumer(topic, name, messageSelector));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        return consumer(s -> s.createSharedConsumer(topic, sharedSubscriptionName));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        return consumer(s -> s.createSharedConsumer(topic, sharedSubscriptionName, messageSelector));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        try {
            return session().createBrowser(queue, messageSelector);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void unsubscribe(String name) {
        try {
            session().unsubscribe(name);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    // ---- destinations -------------------------------------------------------------------------

    @Override
    public Queue createQueue(String queueName) {
        try {
            return session().createQueue(queueName);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public Topic createTopic(String topicName) {
        try {
            return session().createTopic(topicName);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        try {
            return session().createTemporaryQueue();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        try {
            return session().createTemporaryTopic();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    // ---- messages -----------------------------------------------------------------------------

    @Override
    public BytesMessage createBytesMessage() {
        try {
            return session().createBytesMessage();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public MapMessage createMapMessage() {
        try {
            return session().createMapMessage();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public Message createMessage() {
        try {
            return session().createMessage();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public ObjectMessage createObjectMessage() {
        try {
            return session().createObjectMessage();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        try {
            return session().createObjectMessage(object);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public StreamMessage createStreamMessage() {
        try {
            return session().createStreamMessage();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public TextMessage createTextMessage() {
        try {
            return session().createTextMessage();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public TextMessage createTextMessage(String text) {
        try {
            return session().createTextMessage(text);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public String toString() {
        return "PartitaJMSContext[mode=" + sessionMode + (closed ? ", closed" : "") + "]";
    }

    /** A connection and the number of open contexts using it; the last one out closes it. */
    private static final class SharedConnection {
        final PartitaConnection connection;
        private int users = 1;

        SharedConnection(PartitaConnection connection) {
            this.connection = connection;
        }

        synchronized void acquire() {
            if (users == 0) {
                throw new IllegalStateRuntimeException("the connection is closed");
            }
            users++;
        }

        void release() throws JMSException {
            boolean last;
            synchronized (this) {
                last = --users == 0;
            }
            if (last) {
                connection.close();
            }
        }
    }
}
