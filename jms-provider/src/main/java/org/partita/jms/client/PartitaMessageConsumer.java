package org.partita.jms.client;

import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.QueueReceiver;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import org.partita.jms.api.PartitaConsumer;
import org.partita.jms.api.PartitionListener;
import org.partita.jms.destination.PartitaDestination;
import org.partita.jms.message.PartitaMessage;

/**
 * A consumer: a buffer of prefetched deliveries, filled by the transport within the credit it
 * granted, emptied by {@code receive} or by its listener on the session's thread.
 */
public class PartitaMessageConsumer implements QueueReceiver, TopicSubscriber, PartitaConsumer {
    private final PartitaSession session;
    private final int id;
    private final PartitaDestination destination;
    private final String selector;
    private final ConsumerCredit credit;
    private final LinkedBlockingDeque<Incoming> buffer = new LinkedBlockingDeque<>();
    /** How long a receive waits at least for a silent node to answer before it hands out a prefetched message. */
    private static final long HEARD_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Deliveries numbered up to this were voided by a recover or rollback. */
    private volatile long voidUpTo;

    private volatile MessageListener listener;
    private volatile PartitionListener partitionListener;
    /** Orders a listener being set with partition changes, so that it misses none and hears none twice. */
    private final Object partitionLock = new Object();

    private volatile Set<Integer> owned = Set.of();
    private volatile int priority;
    private volatile boolean closed;
    private final Object closeLock = new Object();

    PartitaMessageConsumer(PartitaSession session, int id, PartitaDestination destination, String selector) {
        this.session = session;
        this.id = id;
        this.destination = destination;
        this.selector = selector == null || selector.isBlank() ? null : selector; // "no selector" reads as null
        this.credit = new ConsumerCredit(
                session.connection().transport(),
                id,
                session.connection().options().prefetch(),
                session.connection().options().prefetchBytes());
        this.priority = priorityIn(destination.name());
    }

    /** The {@code priority} option of a destination name such as {@code jobs?priority=10}, else 0. */
    private static int priorityIn(String name) {
        int q = name.indexOf('?');
        if (q < 0) {
            return 0;
        }
        for (String pair : name.substring(q + 1).split("&")) {
            if (pair.startsWith("priority=")) {
                try {
                    return Integer.parseInt(pair.substring("priority=".length()));
                } catch (NumberFormatException e) {
                    return 0; // the node refuses the name with a clear error
                }
            }
        }
        return 0;
    }

    int id() {
        return id;
    }

    ConsumerCredit credit() {
        return credit;
    }

    PartitaSession session() {
        return session;
    }

    PartitaDestination destination() {
        return destination;
    }

    /** From the transport: false if this consumer no longer takes messages. */
    boolean accept(Incoming delivery) {
        // Buffered within arrived(): a receiveNoWait that finds its pull answered then finds the delivery too.
        Arrival arrival = credit.arrived(() -> buffer(delivery));
        if (arrival == Arrival.REFUSED) {
            return false;
        }
        if (arrival == Arrival.VOIDED) {
            grantCredit(1, delivery.size()); // voided by a recover the node already processed: it left the buffer
            return true;
        }
        if (listener != null) {
            scheduleListener();
        }
        return true;
    }

    /** What became of a delivery that arrived. */
    private enum Arrival {
        BUFFERED,
        VOIDED,
        REFUSED
    }

    /**
     * Checked and added under the lock dropUpTo() takes: a delivery voided by a recover may arrive
     * after the recover's answer (the node wrote it just after), and must never slip into the buffer
     * between dropUpTo()'s fence and its sweep.
     */
    private Arrival buffer(Incoming delivery) {
        synchronized (closeLock) {
            if (delivery.deliveryId() <= voidUpTo) {
                return Arrival.VOIDED;
            }
            if (closed) {
                return Arrival.REFUSED;
            }
            buffer.add(delivery);
            return Arrival.BUFFERED;
        }
    }

    /** Deliveries left the buffer: their room goes back to the node (in batches, while started). */
    void grantCredit(int n, long bytes) {
        if (!closed) {
            credit.freed(n, bytes);
        }
    }

    /** The connection started: the node may deliver again, and a listener with prefetch 0 asks for a message. */
    CompletableFuture<Void> connectionStarted() {
        CompletableFuture<Void> inPlace = credit.start();
        if (listener != null) {
            credit.pull();
        }
        return inPlace;
    }

    /**
     * The connection stopped: the node's credit is taken back, then what the buffer holds goes back
     * to the node unseen (not counted as delivered), so a stopped consumer holds nothing.
     */
    CompletableFuture<Void> connectionStopped() {
        return credit.drain().thenRun(() -> {
            List<Long> unseen = new java.util.ArrayList<>();
            synchronized (closeLock) {
                drainBuffer(unseen);
            }
            if (!unseen.isEmpty() && !closed) {
                session.connection()
                        .transport()
                        .release(
                                session.id(),
                                new long[0],
                                unseen.stream().mapToLong(Long::longValue).toArray());
            }
        });
    }

    /** Moves buffered deliveries into {@code into} (to be released unseen). */
    void drainBuffer(List<Long> into) {
        Incoming in;
        while ((in = buffer.poll()) != null) {
            if (in != Incoming.WAKE_UP) {
                into.add(in.deliveryId());
            }
        }
    }

    /** After a recover: deliveries up to {@code fence} went back to the node; drop them and give their room back. */
    void dropUpTo(long fence) {
        int dropped = 0;
        long droppedBytes = 0;
        synchronized (closeLock) {
            voidUpTo = Math.max(voidUpTo, fence);
            for (java.util.Iterator<Incoming> it = buffer.iterator(); it.hasNext(); ) {
                Incoming in = it.next();
                if (in != Incoming.WAKE_UP && in.deliveryId() <= fence) {
                    it.remove();
                    dropped++;
                    droppedBytes += in.size();
                }
            }
        }
        if (dropped > 0) {
            grantCredit(dropped, droppedBytes);
        }
    }

    /**
     * The connection moved to another node: what the lost node delivered and is still buffered is
     * void; its room, with what was owed, goes to the new node now, so the window is whole again.
     */
    void failedOver(long voidUpTo) {
        dropUpTo(voidUpTo);
        credit.flush();
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
                credit.pull(); // prefetch 0: one message at a time for a listener
                return;
            }
            if (in == Incoming.WAKE_UP) {
                continue;
            }
            if (!stillOwned(in)) {
                giveBack(List.of(in));
                continue;
            }
            PartitaConnection.NodeHeard heard;
            try {
                heard = session.connection().nodeHeard(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                buffer.addFirst(in);
                return;
            }
            if (heard != PartitaConnection.NodeHeard.YES) {
                grantCredit(
                        1, in.size()); // its node is lost: the delivery is void, as on a failover; its room comes back
                continue;
            }
            if (session.connection().deliveredBeforeAnOutage(in.arrivedNanos())) {
                in = in.mayHaveBeenDelivered(); // flagged; given back, a later one of its key could overtake it
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
        return receiveUntil(deadline, m -> m);
    }

    @Override
    public <T> T receiveBody(Class<T> c, long timeout) throws JMSException {
        if (c == null) {
            throw new IllegalArgumentException("the body type must not be null");
        }
        return receive(timeout, m -> PartitaJMSConsumer.bodyOf(m, c));
    }

    /** What a receive hands out: the message itself or, for JMSConsumer.receiveBody, its body. */
    @FunctionalInterface
    interface Unwrap<R> {
        R apply(PartitaMessage m) throws JMSException;
    }

    /**
     * For JMSConsumer.receiveBody (JMS 2.0): receives like {@link #receive(long)} ({@code timeout} 0 waits
     * forever, a negative one does not wait at all) and returns what {@code unwrap} makes of the message. When
     * unwrap throws MessageFormatException, in the auto modes the message goes back to the front of the buffer
     * unacknowledged, as if the call had not happened (same delivery count, not redelivered); in client
     * acknowledge and transacted mode it counts as received, like any other.
     */
    <R> R receive(long timeout, Unwrap<R> unwrap) throws JMSException {
        long now = System.nanoTime();
        long deadline =
                timeout < 0 ? now : timeout == 0 ? Long.MAX_VALUE : now + TimeUnit.MILLISECONDS.toNanos(timeout);
        return receiveUntil(deadline, unwrap);
    }

    private <R> R receiveUntil(long deadline, Unwrap<R> unwrap) throws JMSException {
        checkOpen();
        if (listener != null) {
            throw new IllegalStateException("this consumer has a message listener; receive() is not allowed");
        }
        try {
            while (!closed) {
                if (!session.connection().awaitStarted(deadline)) {
                    return null;
                }
                Incoming in = next(deadline);
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
                if (!stillOwned(in)) {
                    giveBack(List.of(in));
                    continue;
                }
                // a call that would not wait still waits for one round trip to a silent node
                long heardBy = Math.max(deadline, System.nanoTime() + HEARD_WAIT_NANOS);
                PartitaConnection.NodeHeard heard = session.connection().nodeHeard(heardBy);
                if (heard == PartitaConnection.NodeHeard.NOT_YET) {
                    buffer.addFirst(in); // kept for when the node answers
                    if (System.nanoTime() - deadline >= 0) {
                        return null;
                    }
                    continue;
                }
                if (heard == PartitaConnection.NodeHeard.LOST) {
                    grantCredit(
                            1,
                            in.size()); // its node is lost: the delivery is void, as on a failover; its room comes back
                    continue;
                }
                if (session.connection().deliveredBeforeAnOutage(in.arrivedNanos())) {
                    // flagged: another node may have delivered it meanwhile; given back instead, a
                    // later message of its key, already on its way here, could overtake it
                    in = in.mayHaveBeenDelivered();
                }
                PartitaMessage m = session.take(this, in);
                R result;
                try {
                    result = unwrap.apply(m);
                } catch (MessageFormatException e) {
                    int mode = session.mode(); // the mode it works in now: an XA session outside a branch acknowledges
                    // automatically
                    if (mode == Session.AUTO_ACKNOWLEDGE || mode == Session.DUPS_OK_ACKNOWLEDGE) {
                        credit.unfree(in.size()); // take() freed room for a message that stays buffered
                        session.untake(in);
                        buffer.addFirst(in);
                    }
                    throw e;
                }
                session.consumed(in);
                return result;
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * The next buffered delivery, waiting until the deadline. With prefetch 0 the node is asked for
     * one message first, and when the wait ends empty the request is taken back; a message that
     * crossed it is returned rather than left behind. With a prefetch window, a call that could not
     * wait at all (receiveNoWait) on an empty buffer asks the node before it answers null.
     */
    private Incoming next(long deadline) throws InterruptedException, JMSException {
        Incoming in = buffer.poll();
        if (in != null) {
            return in;
        }
        credit.pull();
        long left = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
        in = left == Long.MAX_VALUE ? buffer.take() : buffer.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
        if (in == null && !closed) {
            if (credit.pullsOneByOne()) {
                JmsExceptions.await(credit.drain());
                in = buffer.poll();
            } else if (left <= 0 && session.connection().isStarted()) {
                // receiveNoWait on an empty buffer: a message the queue holds for this consumer may
                // still be on its way (sent a moment ago, or dispatched as the call came). One round
                // trip through the queue brings whatever it has for the consumer ahead of its answer
                // (a connection failing meanwhile leaves the answer null, as before the round trip).
                JmsExceptions.await(credit.sync().exceptionally(t -> null));
                in = buffer.poll();
            }
        }
        return in;
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
        if (l != null && session.connection().isStarted()) {
            credit.pull();
        }
        scheduleListener();
    }

    @Override
    public void close() throws JMSException {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        buffer.add(Incoming.WAKE_UP);
        if (!session.isDispatchThread()) {
            session.awaitListenersIdle();
        }
        List<Long> unseen = new java.util.ArrayList<>();
        drainBuffer(unseen);
        buffer.add(Incoming.WAKE_UP); // again: the drain may have taken the first one from a blocked receive()
        session.removeConsumer(this);
        var transport = session.connection().transport();
        if (transport.isOpen()) {
            if (!unseen.isEmpty()) {
                transport.release(
                        session.id(),
                        new long[0],
                        unseen.stream().mapToLong(Long::longValue).toArray());
            }
            try {
                JmsExceptions.await(transport.closeConsumer(id));
            } catch (JMSException e) {
                session.connection().closeFailed("consumer " + id, e);
            }
        }
        session.connection().unregister(this);
    }

    @Override
    public void setPriority(int p) throws JMSException {
        checkOpen();
        JmsExceptions.await(session.connection().transport().updateConsumer(id, p, null, null));
        priority = p;
    }

    @Override
    public int getPriority() throws JMSException {
        checkOpen();
        return priority;
    }

    @Override
    public void setCapacity(int messages, long bytes) throws JMSException {
        checkOpen();
        if (messages < 0 || bytes < 0) {
            throw new JMSException("capacity must not be negative");
        }
        JmsExceptions.await(session.connection().transport().updateConsumer(id, null, messages, bytes));
    }

    @Override
    public Set<Integer> getOwnedPartitions() throws JMSException {
        checkOpen();
        return owned;
    }

    @Override
    public void setPartitionListener(PartitionListener l) throws JMSException {
        checkOpen();
        synchronized (partitionLock) {
            partitionListener = l;
            Set<Integer> current = owned;
            // partitions may have been assigned before the listener was set: it hears of them first
            if (l != null && !current.isEmpty()) {
                session.dispatcher().execute(() -> l.onPartitionsAssigned(current));
            }
        }
    }

    /** From the transport: the owned partitions changed; listeners hear of it on the session's thread. */
    void partitionsChanged(int[] now) {
        synchronized (partitionLock) {
            Set<Integer> after = new TreeSet<>();
            for (int p : now) {
                after.add(p);
            }
            Set<Integer> before = owned;
            // First what the application may take, then the buffer: a listener or receive() polling while
            // the buffer is emptied of a revoked partition must find that partition gone already, or it could
            // take a key's later message after its earlier ones were handed back (an order violation)
            owned = java.util.Collections.unmodifiableSet(after);
            giveBackRevoked(after);
            announcePartitions(before, after);
        }
    }

    /**
     * A partition this consumer no longer owns is moving to another consumer: what it prefetched of
     * it and the application has not taken goes back to the node at once, unflagged, so the handoff
     * need not wait for it, and none of it reaches the application after the partition moved.
     */
    private void giveBackRevoked(Set<Integer> keep) {
        List<Incoming> unseen = new java.util.ArrayList<>();
        synchronized (closeLock) {
            for (java.util.Iterator<Incoming> it = buffer.iterator(); it.hasNext(); ) {
                Incoming in = it.next();
                if (in != Incoming.WAKE_UP && in.partition() >= 0 && !keep.contains(in.partition())) {
                    it.remove();
                    unseen.add(in);
                }
            }
        }
        giveBack(unseen);
    }

    /** Whether a delivery may reach the application: not if its partition has moved away meanwhile. */
    private boolean stillOwned(Incoming in) {
        return in.partition() < 0 || owned.contains(in.partition());
    }

    /** Hands prefetched deliveries back unseen (they keep their delivery count) and frees their room. */
    private void giveBack(List<Incoming> unseen) {
        if (!unseen.isEmpty()) {
            session.connection()
                    .transport()
                    .release(
                            session.id(),
                            new long[0],
                            unseen.stream().mapToLong(Incoming::deliveryId).toArray());
            grantCredit(unseen.size(), unseen.stream().mapToLong(Incoming::size).sum());
        }
    }

    private void announcePartitions(Set<Integer> before, Set<Integer> after) {
        Set<Integer> revoked = new TreeSet<>(before);
        revoked.removeAll(after);
        Set<Integer> assigned = new TreeSet<>(after);
        assigned.removeAll(before);
        PartitionListener l = partitionListener;
        if (l != null && (!revoked.isEmpty() || !assigned.isEmpty())) {
            session.dispatcher().execute(() -> {
                if (!revoked.isEmpty()) {
                    l.onPartitionsRevoked(revoked);
                }
                if (!assigned.isEmpty()) {
                    l.onPartitionsAssigned(assigned);
                }
            });
        }
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
