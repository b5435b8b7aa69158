package org.partita.jms.client;

import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.Queue;
import jakarta.jms.QueueSender;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.jms.destination.PartitaDestination;
import org.partita.jms.message.ForeignMessages;
import org.partita.jms.message.PartitaMessage;

/** A producer: stamps the JMS headers on a message, then hands it to its session to send. */
public class PartitaMessageProducer implements QueueSender, TopicPublisher {
    private static final String ID_PREFIX = "ID:" + UUID.randomUUID() + ":";
    private static final AtomicLong IDS = new AtomicLong();

    private final PartitaSession session;
    private final PartitaDestination destination;
    private volatile boolean closed;
    private boolean disableMessageId;
    private boolean disableTimestamp;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;

    PartitaMessageProducer(PartitaSession session, PartitaDestination destination) {
        this.session = session;
        this.destination = destination;
    }

    void markClosed() {
        closed = true;
    }

    private void checkOpen() throws JMSException {
        if (closed) {
            throw new IllegalStateException("the producer is closed");
        }
        session.checkOpen();
    }

    @Override
    public void setDisableMessageID(boolean value) throws JMSException {
        checkOpen();
        disableMessageId = value;
    }

    @Override
    public boolean getDisableMessageID() throws JMSException {
        checkOpen();
        return disableMessageId;
    }

    @Override
    public void setDisableMessageTimestamp(boolean value) throws JMSException {
        checkOpen();
        disableTimestamp = value;
    }

    @Override
    public boolean getDisableMessageTimestamp() throws JMSException {
        checkOpen();
        return disableTimestamp;
    }

    @Override
    public void setDeliveryMode(int mode) throws JMSException {
        checkOpen();
        deliveryMode = checkMode(mode);
    }

    @Override
    public int getDeliveryMode() throws JMSException {
        checkOpen();
        return deliveryMode;
    }

    @Override
    public void setPriority(int p) throws JMSException {
        checkOpen();
        priority = checkPriority(p);
    }

    @Override
    public int getPriority() throws JMSException {
        checkOpen();
        return priority;
    }

    @Override
    public void setTimeToLive(long ttl) throws JMSException {
        checkOpen();
        timeToLive = ttl;
    }

    @Override
    public long getTimeToLive() throws JMSException {
        checkOpen();
        return timeToLive;
    }

    @Override
    public void setDeliveryDelay(long delay) throws JMSException {
        checkOpen();
        deliveryDelay = delay;
    }

    @Override
    public long getDeliveryDelay() throws JMSException {
        checkOpen();
        return deliveryDelay;
    }

    @Override
    public Destination getDestination() throws JMSException {
        checkOpen();
        return destination;
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
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        session.refuseInCompletionListener("close a producer");
        session.awaitSendsInFlight(); // JMS 7.3.4: close returns after outstanding callbacks
        closed = true;
        session.removeProducer(this);
    }

    @Override
    public void send(Message message) throws JMSException {
        send(fixedDestination(), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Message message, int mode, int prio, long ttl) throws JMSException {
        send(fixedDestination(), message, mode, prio, ttl, null);
    }

    @Override
    public void send(Destination d, Message message) throws JMSException {
        send(unfixedDestination(d), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Destination d, Message message, int mode, int prio, long ttl) throws JMSException {
        send(unfixedDestination(d), message, mode, prio, ttl, null);
    }

    @Override
    public void send(Message message, CompletionListener listener) throws JMSException {
        send(fixedDestination(), message, deliveryMode, priority, timeToLive, requireListener(listener));
    }

    @Override
    public void send(Message message, int mode, int prio, long ttl, CompletionListener listener) throws JMSException {
        send(fixedDestination(), message, mode, prio, ttl, requireListener(listener));
    }

    @Override
    public void send(Destination d, Message message, CompletionListener listener) throws JMSException {
        send(unfixedDestination(d), message, deliveryMode, priority, timeToLive, requireListener(listener));
    }

    @Override
    public void send(Destination d, Message message, int mode, int prio, long ttl, CompletionListener listener)
            throws JMSException {
        send(unfixedDestination(d), message, mode, prio, ttl, requireListener(listener));
    }

    @Override
    public void send(Queue queue, Message message) throws JMSException {
        send((Destination) queue, message);
    }

    @Override
    public void send(Queue queue, Message message, int mode, int prio, long ttl) throws JMSException {
        send((Destination) queue, message, mode, prio, ttl);
    }

    @Override
    public void publish(Message message) throws JMSException {
        send(message);
    }

    @Override
    public void publish(Message message, int mode, int prio, long ttl) throws JMSException {
        send(message, mode, prio, ttl);
    }

    @Override
    public void publish(Topic topic, Message message) throws JMSException {
        send(topic, message);
    }

    @Override
    public void publish(Topic topic, Message message, int mode, int prio, long ttl) throws JMSException {
        send(topic, message, mode, prio, ttl);
    }

    private PartitaDestination fixedDestination() throws JMSException {
        checkOpen();
        if (destination == null) {
            throw new UnsupportedOperationException("this producer has no destination; name one in send()");
        }
        return destination;
    }

    private PartitaDestination unfixedDestination(Destination d) throws JMSException {
        checkOpen();
        if (destination != null) {
            throw new UnsupportedOperationException(
                    "this producer was created for " + destination + "; use send(Message)");
        }
        if (d == null) {
            throw new InvalidDestinationException("destination must not be null");
        }
        return PartitaSession.checkDestination(d, false);
    }

    private static CompletionListener requireListener(CompletionListener l) {
        if (l == null) {
            throw new IllegalArgumentException("completion listener must not be null");
        }
        return l;
    }

    static int checkMode(int mode) throws JMSException {
        if (mode != DeliveryMode.PERSISTENT && mode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("delivery mode must be PERSISTENT or NON_PERSISTENT, not " + mode);
        }
        return mode;
    }

    static int checkPriority(int p) throws JMSException {
        if (p < 0 || p > 9) {
            throw new JMSException("priority must be from 0 to 9, not " + p);
        }
        return p;
    }

    private void send(PartitaDestination d, Message message, int mode, int prio, long ttl, CompletionListener listener)
            throws JMSException {
        if (message == null) {
            throw new MessageFormatException("message must not be null");
        }
        checkMode(mode);
        checkPriority(prio);
        long now = System.currentTimeMillis();
        message.setJMSDestination(d);
        message.setJMSDeliveryMode(mode);
        message.setJMSPriority(prio);
        message.setJMSExpiration(ttl > 0 ? now + ttl : 0);
        message.setJMSDeliveryTime(now + Math.max(0, deliveryDelay));
        message.setJMSTimestamp(disableTimestamp ? 0 : now);
        // the hint is not taken for a send that may be made again: the node that receives it again keeps
        // one copy by its JMSMessageID, and refuses a copy without one (JMS 3.4.3 lets a provider ignore it)
        boolean persistent = mode == DeliveryMode.PERSISTENT;
        boolean noId = disableMessageId && !session.mayBeSentAgain(persistent);
        message.setJMSMessageID(noId ? null : ID_PREFIX + IDS.incrementAndGet());
        PartitaMessage toSend = message instanceof PartitaMessage pm ? pm : ForeignMessages.copyOf(message);
        session.send(toSend, message, persistent, listener);
    }
}
