package org.partita.jms.client;

import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.QueueReceiver;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import org.partita.jms.destination.PartitaDestination;
import org.partita.jms.message.PartitaMessage;

import java.util.List;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A consumer: a buffer of prefetched deliveries, filled by the transport within the credit it
 * granted, emptied by {@code receive} or by its listener on the session's thread.
 */
public class PartitaMessageConsumer implements QueueReceiver, TopicSubscriber {
    private final PartitaSession session;
    private final int id;
    private final PartitaDestination destination;
    private final String selector;
    private final int prefetch;
    private final LinkedBlockingDeque<Incoming> buffer = new LinkedBlockingDeque<>();
    private final AtomicInteger creditOwed = new AtomicInteger();
    private final AtomicInteger drained = new AtomicInteger();
    private volatile MessageListener listener;
    private volatile boolean closed;

    PartitaMessageConsumer(PartitaSession session, int id, PartitaDestination destination, String selector) {
        this.session = session;
        this.id = id;
        this.destination = destination;
        this.selector = selector;
        this.prefetch = Math.max(1, session.connection().options().prefetch());
    }

    int id() {
        return id;
    }

    int prefetch() {
        return prefetch;
    }

    PartitaSession session() {
        return session;
    }

    PartitaDestination destination() {
        return destination;
    }

    /** From the transport: false if this consumer no longer takes messages. */
    boolean accept(long deliveryId, int deliveryCount, byte[] message) {
        if (closed) {
            return false;
        }
        buffer.add(new Incoming(deliveryId, deliveryCount, message));
        if (listener != null) {
            scheduleListener();
        }
        return true;
    }

    /** Returns credit to the node in batches of half the prefetch, so a busy consumer never starves. */
    void grantCredit(int n) {
        int owed = creditOwed.addAndGet(n);
        if (owed >= Math.max(1, prefetch / 2) && creditOwed.compareAndSet(owed, 0) && !closed) {
            session.connection().transport().credit(id, owed);
        }
    }

    /** Moves buffered deliveries into {@code into} (to be released unseen). */
    void drainBuffer(List<Long> into) {
        Incoming in;
        while ((in = buffer.poll()) != null) {
            if (in != Incoming.WAKE_UP) {
                into.add(in.deliveryId());
                drained.incrementAndGet();
            }
        }
    }

    /** After drained deliveries were released: they left the buffer, so the node may send again. */
    void regrantDrained() {
        int n = drained.getAndSet(0);
        if (n > 0 && !closed) {
            session.connection().transport().credit(id, n);
        }
    }

    void scheduleListener() {
        if (listener != null && !closed) {
            session.dispatcher().execute(this::deliverToListener);
        }
    }

    private void deliverToListener() {
        MessageListener l;
        while ((l = listener) != null && !closed && session.connection().isStarted()) {
            Incoming in = buffer.poll();
            if (in == null) {
                return;
            }
            if (in == Incoming.WAKE_UP) {
                continue;
            }
            PartitaMessage m;
            try {
                m = session.take(this, in);
            } catch (JMSException e) {
                continue;
            }
            try {
                l.onMessage(m);
                session.consumed(in);
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(PartitaMessageConsumer.class)
                        .warn("message listener threw; the message will be redelivered", e);
                session.listenerFailed(in);
            }
        }
    }

    @Override
    public Message receive() throws JMSException {
        return receive(0);
    }

    @Override
    public Message receive(long timeout) throws JMSException {
        return receiveUntil(timeout <= 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout));
    }

    @Override
    public Message receiveNoWait() throws JMSException {
        return receiveUntil(System.nanoTime());
    }

    private Message receiveUntil(long deadline) throws JMSException {
        checkOpen();
        if (listener != null) {
            throw new IllegalStateException("this consumer has a message listener; receive() is not allowed");
        }
        try {
            while (!closed) {
                if (!session.connection().awaitStarted(deadline)) {
                    return null;
                }
                long left = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
                Incoming in = left == Long.MAX_VALUE ? buffer.take() : buffer.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
                if (in == null) {
                    return null;
                }
                if (in == Incoming.WAKE_UP) {
                    JMSException f = session.connection().failure();
                    if (f != null) {
                        throw f;
                    }
                    continue;
                }
                if (!session.connection().isStarted()) {
                    buffer.addFirst(in); // stopped meanwhile: keep it for after start()
                    continue;
                }
                PartitaMessage m = session.take(this, in);
                session.consumed(in);
                return m;
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    void connectionFailed() {
        buffer.add(Incoming.WAKE_UP);
    }

    private void checkOpen() throws JMSException {
        if (closed) {
            throw new IllegalStateException("the consumer is closed");
        }
        session.checkOpen();
    }

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return selector;
    }

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return listener;
    }

    @Override
    public void setMessageListener(MessageListener l) throws JMSException {
        checkOpen();
        this.listener = l;
        scheduleListener();
    }

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        closed = true;
        buffer.add(Incoming.WAKE_UP);
        if (!session.isDispatchThread()) {
            session.awaitListenersIdle();
        }
        List<Long> unseen = new java.util.ArrayList<>();
        drainBuffer(unseen);
        drained.set(0);
        session.removeConsumer(this);
        var transport = session.connection().transport();
        if (transport.isOpen()) {
            if (!unseen.isEmpty()) {
                transport.release(session.id(), new long[0], unseen.stream().mapToLong(Long::longValue).toArray());
            }
            try {
                JmsExceptions.await(transport.closeConsumer(id));
            } catch (JMSException e) {
                // the node forgets the consumer with the session or connection anyway
            }
        }
        session.connection().unregister(this);
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return destination instanceof Queue q ? q : null;
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        return destination instanceof Topic t ? t : null;
    }

    @Override
    public boolean getNoLocal() throws JMSException {
        checkOpen();
        return false;
    }
}
