package org.partita.jms.client;

import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueSession;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.partita.jms.destination.PartitaDestination;
import org.partita.jms.destination.TemporaryDestinationOwner;
import org.partita.jms.transport.BrokerConnection;
import org.partita.jms.transport.BrokerError;
import org.partita.jms.transport.ConnectionListener;
import org.partita.protocol.Frame;

/**
 * A JMS connection to one node. Routes deliveries to consumers, owns the started/stopped state
 * that gates them, and tells the {@link ExceptionListener} when the node is lost.
 */
public class PartitaConnection
        implements QueueConnection, TopicConnection, ConnectionListener, TemporaryDestinationOwner {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PartitaConnection.class);
    private final BrokerConnection transport;
    private final ConnectionOptions options;
    private final List<PartitaSession> sessions = new CopyOnWriteArrayList<>();
    private final Map<Integer, PartitaMessageConsumer> consumers = new ConcurrentHashMap<>();
    /**
     * Session of recently closed consumers, so a delivery that crossed a close can still be handed
     * back. Such a delivery trails the close by microseconds, so the last few hundred closes are
     * plenty; the map never grows with consumer churn.
     */
    private final Map<Integer, Integer> closedConsumers =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Integer, Integer> eldest) {
                    return size() > 512;
                }
            });

    private final AtomicInteger sessionIds = new AtomicInteger();
    private final AtomicInteger consumerIds = new AtomicInteger();
    private final Object startLock = new Object();
    private volatile boolean started;
    private volatile boolean closed;
    private volatile boolean clientIdFixed;
    private volatile String clientId;
    private volatile ExceptionListener exceptionListener;
    private volatile JMSException failure;

    private final Domain domain;
    /** Calls the ExceptionListener one report at a time, off the transport's threads. */
    private final SessionDispatcher exceptionReports = new SessionDispatcher();

    /** What this connection does is counted here, with its factory's other connections. */
    private final ClientStatistics statistics;
    /** Set by the first of close() and the loss of the node: the connection no longer counts as open. */
    private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();

    /** A connection counted in statistics of its own (tests, which make connections without a factory). */
    PartitaConnection(BrokerConnection transport, ConnectionOptions options, String clientId, Domain domain) {
        this(transport, options, clientId, domain, new ClientStatistics());
    }

    PartitaConnection(
            BrokerConnection transport,
            ConnectionOptions options,
            String clientId,
            Domain domain,
            ClientStatistics statistics) {
        this.domain = domain;
        this.transport = transport;
        this.options = options;
        this.clientId = clientId;
        this.clientIdFixed = clientId != null;
        this.statistics = statistics;
        statistics.connectionOpened();
        transport.setListener(this);
    }

    ClientStatistics statistics() {
        return statistics;
    }

    private void ended() {
        if (ended.compareAndSet(false, true)) {
            statistics.connectionEnded();
        }
    }

    BrokerConnection transport() {
        return transport;
    }

    ConnectionOptions options() {
        return options;
    }

    int nextConsumerId() {
        return consumerIds.incrementAndGet();
    }

    void register(PartitaMessageConsumer c) {
        consumers.put(c.id(), c);
    }

    void unregister(PartitaMessageConsumer c) {
        closedConsumers.put(c.id(), c.session().id());
        consumers.remove(c.id());
    }

    void removeSession(PartitaSession s) {
        sessions.remove(s);
    }

    /** Runs an administrative command on the node (see {@link org.partita.jms.api.PartitaAdmin}). */
    public String admin(String command, String argument) throws JMSException {
        checkOpen();
        return JmsExceptions.await(transport.admin(command, argument));
    }

    @Override
    public Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return openSession(transacted, acknowledgeMode, Domain.ANY);
    }

    private PartitaSession openSession(boolean transacted, int acknowledgeMode, Domain sessionDomain)
            throws JMSException {
        int mode = transacted ? Session.SESSION_TRANSACTED : acknowledgeMode;
        if (mode != Session.SESSION_TRANSACTED
                && mode != Session.AUTO_ACKNOWLEDGE
                && mode != Session.CLIENT_ACKNOWLEDGE
                && mode != Session.DUPS_OK_ACKNOWLEDGE) {
            checkOpen();
            throw new JMSException("invalid acknowledge mode " + acknowledgeMode);
        }
        return openSession(mode == Session.SESSION_TRANSACTED, id -> new PartitaSession(this, id, mode, sessionDomain));
    }

    /** Makes a session of some kind once the node opened it under {@code id}. */
    @FunctionalInterface
    interface SessionMaker<S extends PartitaSession> {
        S make(int id);
    }

    /** Opens a session on the node ({@code transacted}: local transactions) and keeps it among this connection's. */
    <S extends PartitaSession> S openSession(boolean transacted, SessionMaker<S> maker) throws JMSException {
        checkOpen();
        clientIdFixed = true;
        int id = sessionIds.incrementAndGet();
        JmsExceptions.await(transport.openSession(id, transacted));
        S s = maker.make(id);
        sessions.add(s);
        return s;
    }

    /**
     * Whether both connections reach the same node: the same address and the node's name from the
     * handshake. XA resources of one node are one resource manager (a branch joined from another
     * connection is the same branch).
     */
    boolean sameNode(PartitaConnection other) {
        String mine = transport.nodeName();
        return mine != null
                && mine.equals(other.transport.nodeName())
                && options.nodes().equals(other.options.nodes());
    }

    @Override
    public Session createSession(int sessionMode) throws JMSException {
        return createSession(sessionMode == Session.SESSION_TRANSACTED, sessionMode);
    }

    @Override
    public Session createSession() throws JMSException {
        return createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    @Override
    public QueueSession createQueueSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return openSession(transacted, acknowledgeMode, Domain.QUEUE);
    }

    @Override
    public TopicSession createTopicSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return openSession(transacted, acknowledgeMode, Domain.TOPIC);
    }

    @Override
    public String getClientID() throws JMSException {
        checkOpen();
        return clientId;
    }

    @Override
    public void setClientID(String id) throws JMSException {
        checkOpen();
        if (clientIdFixed) {
            throw new IllegalStateException("the client id can only be set once, before the connection is used");
        }
        if (id == null || id.isEmpty()) {
            throw new jakarta.jms.InvalidClientIDException("client id must not be empty");
        }
        JmsExceptions.await(transport.destinationOp(Frame.OP_SET_CLIENT_ID, id));
        clientId = id;
        clientIdFixed = true;
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        checkOpen();
        clientIdFixed = true;
        return new PartitaConnectionMetaData();
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        checkOpen();
        return exceptionListener;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        checkOpen();
        clientIdFixed = true;
        this.exceptionListener = listener;
    }

    @Override
    public void start() throws JMSException {
        checkOpen();
        clientIdFixed = true;
        synchronized (startLock) {
            started = true;
            startLock.notifyAll();
        }
        List<java.util.concurrent.CompletableFuture<Void>> inPlace = new java.util.ArrayList<>();
        for (PartitaSession s : sessions) {
            inPlace.addAll(s.connectionStarted());
        }
        for (java.util.concurrent.CompletableFuture<Void> f : inPlace) {
            JmsExceptions.await(f); // the node's queues have the consumers' credit: start() means delivering
        }
    }

    @Override
    public void stop() throws JMSException {
        checkOpen();
        clientIdFixed = true;
        for (PartitaSession s : sessions) {
            if (s.isDispatchThread()) {
                throw new IllegalStateException("a message listener may not stop its own connection");
            }
        }
        started = false;
        for (PartitaSession s : sessions) {
            s.awaitListenersIdle();
        }
        // JMS 6.1.4: a stopped connection's consumers take no messages; what they buffered goes back
        List<java.util.concurrent.CompletableFuture<Void>> drained = new java.util.ArrayList<>();
        for (PartitaSession s : sessions) {
            drained.addAll(s.connectionStopped());
        }
        for (java.util.concurrent.CompletableFuture<Void> d : drained) {
            JmsExceptions.await(d);
        }
    }

    boolean isStarted() {
        return started;
    }

    /** Whether the node was heard from lately enough for a prefetched message to be handed out. */
    enum NodeHeard {
        /** Within its delivery lease: the message may go to the application. */
        YES,
        /** No answer yet: keep the message, ask again later. */
        NOT_YET,
        /** The connection to that node is lost: what it delivered is void. */
        LOST
    }

    /**
     * Whether a delivery that came at {@code arrivedNanos} came before its node was last unresponsive
     * for longer than an election: another node may have delivered it again meanwhile.
     */
    boolean deliveredBeforeAnOutage(long arrivedNanos) {
        long until = transport.unresponsiveUntil();
        return until != Long.MIN_VALUE && arrivedNanos - until < 0; // MIN_VALUE: never (no subtraction: it overflows)
    }

    /**
     * Waits, until the deadline, for the node to have been heard from within the delivery lease it
     * announced (a ping when it has been silent longer). A node of a cluster that stops answering may
     * see its partitions taken over and their messages redelivered elsewhere; a client that kept
     * handing out what it prefetched from it would give the application a message another consumer
     * may already have received flagged redelivered, unflagged here, after it.
     */
    NodeHeard nodeHeard(long deadlineNanos) throws InterruptedException {
        java.util.concurrent.CompletableFuture<Void> heard = transport.heardLately();
        try {
            if (deadlineNanos == Long.MAX_VALUE) {
                heard.get();
            } else {
                heard.get(Math.max(0, deadlineNanos - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
            }
            return NodeHeard.YES;
        } catch (java.util.concurrent.TimeoutException e) {
            return NodeHeard.NOT_YET;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
            return NodeHeard.LOST;
        }
    }

    /** Waits until the connection is started or the time is up; false if still stopped. */
    boolean awaitStarted(long deadlineNanos) throws InterruptedException {
        synchronized (startLock) {
            while (!started && !closed) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(startLock, left);
            }
            return started;
        }
    }

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        for (PartitaSession s : sessions) {
            if (s.inListener()) {
                throw new IllegalStateException("a message or completion listener may not close its own connection");
            }
        }
        for (PartitaSession s : sessions) {
            s.awaitPendingSends(); // JMS 7.3.4: close returns after outstanding completion callbacks
        }
        started = false;
        for (PartitaSession s : sessions) {
            try {
                s.close();
            } catch (JMSException e) {
                // the connection is going anyway; the session's resources go with it
            }
        }
        closed = true;
        ended();
        synchronized (startLock) {
            startLock.notifyAll();
        }
        try {
            transport.close().get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the transport is dropped anyway; the caller hears of the interrupt
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // closing a connection never fails for the caller: the transport is gone either way
        }
    }

    boolean isClosed() {
        return closed;
    }

    void checkOpen() throws JMSException {
        if (closed) {
            throw new IllegalStateException("the connection is closed");
        }
        JMSException f = failure;
        if (f != null) {
            throw new IllegalStateException("the connection failed: " + f.getMessage());
        }
    }

    @Override
    public void onDelivery(int consumerId, long deliveryId, int deliveryCount, int partition, byte[] message) {
        PartitaMessageConsumer c = consumers.get(consumerId);
        if (c == null || !c.accept(new Incoming(deliveryId, deliveryCount, partition, message))) {
            // The consumer closed while this was on its way: hand it back untouched.
            Integer sessionId = c != null ? Integer.valueOf(c.session().id()) : closedConsumers.get(consumerId);
            if (sessionId != null) {
                transport.release(sessionId, new long[0], new long[] {deliveryId});
            }
        }
    }

    @Override
    public void onPartitions(int consumerId, int[] owned) {
        PartitaMessageConsumer c = consumers.get(consumerId);
        if (c != null) {
            c.partitionsChanged(owned);
        }
    }

    @Override
    public void onFailure(BrokerError cause) {
        JMSException e = JmsExceptions.from(cause);
        failure = e;
        ended();
        for (PartitaMessageConsumer c : consumers.values()) {
            c.connectionFailed();
        }
        synchronized (startLock) {
            startLock.notifyAll();
        }
        if (!closed) {
            tellExceptionListener(e);
        }
    }

    /**
     * The transport failed over to another node: what consumers prefetched from the lost node is
     * dropped (its room goes to the new node) and the ExceptionListener hears of the switch, with
     * error code {@code PARTITA_FAILOVER}, while the connection stays usable.
     */
    @Override
    public void onFailover(long voidUpTo, BrokerError report) {
        statistics.failedOver();
        for (PartitaMessageConsumer c : consumers.values()) {
            c.failedOver(voidUpTo);
        }
        if (!closed) {
            tellExceptionListener(JmsExceptions.from(report));
        }
    }

    /** Requests sent without confirmation that the node refused (non-persistent sends to a full queue). */
    private final java.util.concurrent.atomic.AtomicLong unconfirmedRefusals =
            new java.util.concurrent.atomic.AtomicLong();

    /** A request sent without an answer failed on the node (a non-persistent send): the connection stays up. */
    @Override
    public void onRequestFailed(BrokerError cause) {
        statistics.sendFailed(); // the requests sent without an answer are non-persistent sends
        JMSException e = JmsExceptions.from(cause);
        long refusals = unconfirmedRefusals.incrementAndGet();
        if (exceptionListener == null && refusals == 1) {
            // once per connection: a producer of non-persistent messages to a full queue is refused
            // at its sending rate, which would fill the application's log
            LOG.warn(
                    "the node refused a request sent without confirmation (no ExceptionListener is set): {};"
                            + " further refusals on this connection are logged at DEBUG",
                    e.getMessage());
        } else {
            LOG.debug("the node refused a request sent without confirmation: {}", e.getMessage());
        }
        tellExceptionListener(e);
    }

    /**
     * A close the node refused or did not answer while this connection is up: the node may still
     * hold what was closed, so the failure is logged and the ExceptionListener hears of it. An
     * interrupted close is the caller's own doing, with the interrupt flag kept; it is not reported.
     */
    void closeFailed(String what, JMSException e) {
        if (Thread.currentThread().isInterrupted() || closed || failure != null || !transport.isOpen()) {
            return;
        }
        LOG.warn("closing {} failed while the connection stays open: {}", what, e.getMessage());
        JMSException reported = new JMSException("closing " + what + " failed: " + e.getMessage(), e.getErrorCode());
        reported.initCause(e);
        reported.setLinkedException(e);
        tellExceptionListener(reported);
    }

    private void tellExceptionListener(JMSException e) {
        ExceptionListener l = exceptionListener;
        if (l != null) {
            exceptionReports.execute(() -> l.onException(e));
        }
    }

    JMSException failure() {
        return failure;
    }

    @Override
    public void deleteTemporary(PartitaDestination destination) throws JMSException {
        checkOpen();
        for (PartitaMessageConsumer c : consumers.values()) {
            if (destination.equals(c.destination())) {
                throw new IllegalStateException("temporary destination " + destination + " still has a consumer");
            }
        }
        JmsExceptions.await(transport.destinationOp(Frame.OP_DELETE_TEMP, destination.encode()));
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(
            Destination destination, String messageSelector, ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw new jakarta.jms.JMSException(
                "connection consumers are for application servers; use the Partita resource adapter");
    }

    @Override
    public ConnectionConsumer createSharedConnectionConsumer(
            Topic topic,
            String subscriptionName,
            String messageSelector,
            ServerSessionPool sessionPool,
            int maxMessages)
            throws JMSException {
        domain.topicOnly("createSharedConnectionConsumer");
        throw new jakarta.jms.JMSException(
                "connection consumers are for application servers; use the Partita resource adapter");
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(
            Topic topic,
            String subscriptionName,
            String messageSelector,
            ServerSessionPool sessionPool,
            int maxMessages)
            throws JMSException {
        domain.topicOnly("createDurableConnectionConsumer");
        throw new jakarta.jms.JMSException(
                "connection consumers are for application servers; use the Partita resource adapter");
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(
            Topic topic,
            String subscriptionName,
            String messageSelector,
            ServerSessionPool sessionPool,
            int maxMessages)
            throws JMSException {
        domain.topicOnly("createSharedDurableConnectionConsumer");
        throw new jakarta.jms.JMSException(
                "connection consumers are for application servers; use the Partita resource adapter");
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(
            Queue queue, String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw new jakarta.jms.JMSException(
                "connection consumers are for application servers; use the Partita resource adapter");
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(
            Topic topic, String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw new jakarta.jms.JMSException(
                "connection consumers are for application servers; use the Partita resource adapter");
    }
}
