package org.partita.jms.client;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.QueueReceiver;
import jakarta.jms.QueueSender;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import jakarta.jms.TransactionRolledBackException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.partita.jms.destination.PartitaDestination;
import org.partita.jms.destination.PartitaQueue;
import org.partita.jms.destination.PartitaTemporaryQueue;
import org.partita.jms.destination.PartitaTemporaryTopic;
import org.partita.jms.destination.PartitaTopic;
import org.partita.jms.message.MessageFactory;
import org.partita.jms.message.PartitaBytesMessage;
import org.partita.jms.message.PartitaMapMessage;
import org.partita.jms.message.PartitaMessage;
import org.partita.jms.message.PartitaObjectMessage;
import org.partita.jms.message.PartitaStreamMessage;
import org.partita.jms.message.PartitaTextMessage;
import org.partita.jms.transport.BrokerConnection;
import org.partita.protocol.Frame;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.WireMessage;
import org.partita.protocol.selector.Selector;
import org.partita.protocol.selector.SelectorException;

/**
 * A JMS session: creates producers and consumers, and settles what its consumers deliver
 * according to its mode (auto, dups-ok, client acknowledge, or transacted).
 */
public class PartitaSession implements Session, QueueSession, TopicSession {
    private final PartitaConnection connection;
    private final int id;
    private final int mode;
    /** Runs the message listeners of this session's consumers, one at a time (JMS 6.2.4). */
    private final SessionDispatcher dispatcher = new SessionDispatcher();
    /**
     * Runs completion listeners, one at a time in send order (JMS 7.3.8), on a thread of their own:
     * never the message listener's, so a completion listener may stop the connection (6.1.4) and a
     * message listener may wait for callbacks of its own sends.
     */
    private final SessionDispatcher completions = new SessionDispatcher();

    private final List<PartitaMessageConsumer> consumers = new CopyOnWriteArrayList<>();
    private final List<PartitaMessageProducer> producers = new CopyOnWriteArrayList<>();
    private final List<Long> unsettled = new ArrayList<>();
    /** Sends still on their way; for asynchronous sends, each completes once its callback returned. */
    private final java.util.Set<CompletableFuture<Void>> pendingSends = new java.util.LinkedHashSet<>();
    /** How long a send that found a refusal waits for the sends before it to be answered. */
    private static final long SURFACE_WAIT_SECONDS = 60;
    /** The same sends, completing when the node answered (what the session's own thread may wait for). */
    private final java.util.Set<CompletableFuture<Void>> pendingAcks = new java.util.LinkedHashSet<>();
    /** The session whose completion listener the current thread is running, if any. */
    private static final ThreadLocal<PartitaSession> IN_COMPLETION_LISTENER = new ThreadLocal<>();

    private volatile boolean closed;
    private final Domain domain;

    PartitaSession(PartitaConnection connection, int id, int mode, Domain domain) {
        this.connection = connection;
        this.id = id;
        this.mode = mode;
        this.domain = domain;
    }

    int id() {
        return id;
    }

    /**
     * The mode the session works in now. Fixed for a plain session; an XA session works
     * transacted while it is associated with a branch and in AUTO_ACKNOWLEDGE otherwise.
     */
    int mode() {
        return mode;
    }

    PartitaConnection connection() {
        return connection;
    }

    /**
     * Whether a send of this session may be made again on another node when its node is lost before
     * it answered: a persistent send, on its own or in a transaction, through a connection that fails
     * over with {@code sendAgain} on ({@link BrokerConnection#sendsAgain}).
     */
    boolean mayBeSentAgain(boolean persistent) {
        return persistent && connection.transport().sendsAgain();
    }

    SessionDispatcher dispatcher() {
        return dispatcher;
    }

    boolean isDispatchThread() {
        return dispatcher.isDispatchThread();
    }

    void checkOpen() throws JMSException {
        if (closed) {
            throw new IllegalStateException("the session is closed");
        }
        connection.checkOpen();
    }

    // ---- sending -------------------------------------------------------------------------

    /** Sends an encoded message the way the session's mode and the delivery mode require. */
    void send(PartitaMessage message, Message asGiven, boolean persistent, CompletionListener listener)
            throws JMSException {
        try {
            sendCounted(message, asGiven, persistent, listener);
        } catch (JMSException | RuntimeException e) {
            connection.statistics().sendFailed();
            throw e;
        }
    }

    /**
     * {@link #send}; a send that completes later (asynchronous, transacted) is counted sent or failed
     * when the node answers, the others here, a send that throws by {@link #send}.
     */
    private void sendCounted(PartitaMessage message, Message asGiven, boolean persistent, CompletionListener listener)
            throws JMSException {
        WireMessage wire = message.toWire();
        int uploadId = 0;
        java.io.InputStream streamed = message.streamedBody();
        BrokerConnection transport = connection.transport();
        if (streamed != null
                || (wire.body() != null
                        && wire.body().length > connection.options().largeMessageBytes()
                        && transport.takesLargeBodies())) {
            if (!transport.takesLargeBodies()) {
                throw new JMSException("the node speaks an older protocol and takes no large messages; a body from"
                        + " a stream cannot be sent to it");
            }
            // the body goes first, in parts; the message then names it
            uploadId = transport.newUploadId();
            long length = LargeBodyTransfer.upload(
                    transport, uploadId, streamed != null ? streamed : new java.io.ByteArrayInputStream(wire.body()));
            wire = withLargeBody(wire, length);
        }
        byte[] encoded = MessageCodec.encode(wire);
        // flow control: what this connection has unconfirmed stays within the node's send credit
        try {
            connection.transport().awaitSendRoom(encoded.length);
        } catch (RuntimeException e) {
            throw JmsExceptions.from(e);
        }
        if (mode() == SESSION_TRANSACTED) {
            refusedTransactionSend();
        }
        if (listener != null) {
            CompletableFuture<Void> f = persistent && mode() != SESSION_TRANSACTED && uploadId == 0
                    ? connection.transport().sendAgainIfLost(id, encoded)
                    : transmit(encoded, uploadId, true);
            CompletableFuture<Void> callbackDone = new CompletableFuture<>();
            trackAck(f);
            track(callbackDone);
            f.whenComplete((v, t) -> completions.execute(() -> {
                IN_COMPLETION_LISTENER.set(this);
                try {
                    if (t == null) {
                        listener.onCompletion(asGiven);
                    } else {
                        listener.onException(asGiven, JmsExceptions.from(t));
                    }
                } finally {
                    IN_COMPLETION_LISTENER.remove();
                    callbackDone.complete(null);
                }
            }));
            return;
        }
        if (mode() == SESSION_TRANSACTED) {
            CompletableFuture<Void> f = transmit(encoded, uploadId, true);
            trackAck(f);
            track(f);
        } else if (persistent) {
            // a large body is on the node in use: if that node is lost, the send fails (not made again elsewhere)
            JmsExceptions.await(
                    uploadId == 0
                            ? connection.transport().sendAgainIfLost(id, encoded)
                            : transmit(encoded, uploadId, true));
            connection.statistics().sent();
        } else {
            transmit(encoded, uploadId, false);
            connection.statistics().sent();
        }
    }

    /** Sends the encoded message, with the large body uploaded as {@code uploadId} (0: none). */
    private CompletableFuture<Void> transmit(byte[] encoded, int uploadId, boolean confirm) {
        return uploadId == 0
                ? connection.transport().send(id, encoded, confirm)
                : connection.transport().sendWithBody(id, encoded, uploadId, confirm);
    }

    /** The message as sent once its body went ahead in parts: an empty body, and the body's length. */
    private static WireMessage withLargeBody(WireMessage m, long length) {
        java.util.Map<String, Object> properties = new java.util.LinkedHashMap<>(m.properties());
        properties.put(org.partita.protocol.Protocol.LARGE_BODY_BYTES_PROPERTY, length);
        return m.with(properties, new byte[0]);
    }

    /** A large body received is kept in memory up to this, in a temporary file beyond: 64 MiB, or an eighth of the heap. */
    private static final long LARGE_BODY_IN_MEMORY_BYTES =
            Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8);

    /**
     * A transacted send the node refused because the transaction (or the node's open transactions)
     * grew past its bound: the next send throws it ({@code ResourceAllocationException}) rather than
     * only the commit. Sends are pipelined, so the ones after the refused one may be refused too: this
     * waits for every send still on its way, and the one exception stands for all refusals so far.
     * They are the application's news from then on (the transaction goes on with what the node took);
     * a refusal that no send surfaced still fails the commit.
     */
    private void refusedTransactionSend() throws JMSException {
        if (!anyRefused()) {
            return;
        }
        List<CompletableFuture<Void>> onTheirWay;
        synchronized (pendingSends) {
            onTheirWay = new ArrayList<>(pendingAcks);
        }
        for (CompletableFuture<Void> f : onTheirWay) {
            try {
                f.get(SURFACE_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // its outcome is looked at below (a send that has no answer yet stays pending)
            }
        }
        JMSException first = null;
        int refused = 0;
        synchronized (pendingSends) {
            for (java.util.Iterator<CompletableFuture<Void>> it = pendingSends.iterator(); it.hasNext(); ) {
                JMSException j = refusal(it.next());
                if (j != null) {
                    it.remove();
                    refused++;
                    first = first == null ? j : first;
                }
            }
            pendingAcks.removeIf(f -> refusal(f) != null);
        }
        if (first != null) {
            if (refused > 1) {
                jakarta.jms.ResourceAllocationException all = new jakarta.jms.ResourceAllocationException(
                        refused + " sends of this transaction were refused (not added): " + first.getMessage(),
                        first.getErrorCode());
                all.initCause(first);
                throw all;
            }
            throw first;
        }
    }

    private boolean anyRefused() {
        synchronized (pendingSends) {
            for (CompletableFuture<Void> f : pendingSends) {
                if (refusal(f) != null) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The ResourceAllocationException a send completed with, or null. */
    private static JMSException refusal(CompletableFuture<Void> f) {
        if (!f.isCompletedExceptionally()) {
            return null;
        }
        JMSException j = JmsExceptions.from(f.handle((v, e) -> e).join());
        return j instanceof jakarta.jms.ResourceAllocationException ? j : null;
    }

    /** Remembers a send until it completes; each drops itself when done, so big transactions stay linear. */
    private void track(CompletableFuture<Void> f) {
        remember(pendingSends, f);
    }

    /** Remembers a send until the node answers it, and counts it sent or failed then. */
    private void trackAck(CompletableFuture<Void> f) {
        remember(pendingAcks, f, connection.statistics());
    }

    private void remember(java.util.Set<CompletableFuture<Void>> list, CompletableFuture<Void> f) {
        remember(list, f, null);
    }

    private void remember(
            java.util.Set<CompletableFuture<Void>> list, CompletableFuture<Void> f, ClientStatistics counted) {
        synchronized (pendingSends) {
            list.add(f);
        }
        f.whenComplete((v, t) -> {
            if (counted != null) {
                if (t == null) {
                    counted.sent();
                } else {
                    counted.sendFailed();
                }
            }
            if (t == null) { // failed ones stay, so commit() can see the failure
                synchronized (pendingSends) {
                    list.remove(f);
                }
            }
        });
    }

    /** True on the thread running one of this session's completion listeners. */
    boolean inCompletionListener() {
        return IN_COMPLETION_LISTENER.get() == this;
    }

    /** True on the thread running one of this session's message or completion listeners. */
    boolean inListener() {
        return dispatcher.isDispatchThread() || inCompletionListener();
    }

    /** JMS 7.3.4: a completion listener may not close, commit or roll back its own session or producer. */
    void refuseInCompletionListener(String what) throws JMSException {
        if (inCompletionListener()) {
            throw new IllegalStateException("a completion listener may not " + what + " of its own session");
        }
    }

    /**
     * Waits for sends still on their way (and for the completion listeners of asynchronous ones to
     * return); returns the first failure, if any. On the completion listeners' own thread the other
     * listeners are queued behind the caller, so only the sends themselves are awaited there.
     */
    Throwable awaitPendingSends() {
        return awaitSends(true);
    }

    /**
     * Waits like {@link #awaitPendingSends} for a producer's close. In a transaction (local, or an XA
     * branch) a failed send stays for the commit (or a later send) to surface: closing a producer
     * ends no transaction. Elsewhere its completion listener has been told, and it is let go.
     */
    void awaitSendsInFlight() {
        awaitSends(mode() != SESSION_TRANSACTED);
    }

    private Throwable awaitSends(boolean lookedAt) {
        List<CompletableFuture<Void>> all;
        boolean onCompletionThread = completions.isDispatchThread();
        synchronized (pendingSends) {
            all = new ArrayList<>(onCompletionThread ? pendingAcks : pendingSends);
            // a send that failed stays until it is looked at here (or surfaced at a later send): a
            // commit must not go on without a message whose send returned normally
            all.removeIf(f -> f.isDone() && !f.isCompletedExceptionally());
            if (lookedAt && !onCompletionThread) {
                pendingSends.clear();
                pendingAcks.removeIf(CompletableFuture::isCompletedExceptionally); // looked at through pendingSends
            }
        }
        Throwable first = null;
        for (CompletableFuture<Void> f : all) {
            try {
                JmsExceptions.await(f);
            } catch (JMSException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        return first;
    }

    // ---- receiving -----------------------------------------------------------------------

    /**
     * Turns a delivery into a message handed to the application, and records it as seen and not yet
     * settled. In the auto modes it stays so only until {@link #consumed}: a {@code recover()} called
     * meanwhile (from {@code onMessage}) hands it back as redelivered, and then it is not acknowledged.
     */
    PartitaMessage take(PartitaMessageConsumer consumer, Incoming in) throws JMSException {
        WireMessage wire = MessageCodec.decode(in.message());
        PartitaMessage m = wire.property(org.partita.protocol.Protocol.LARGE_BODY_BYTES_PROPERTY) instanceof Long length
                ? withLargeBody(consumer, in, wire, length)
                : MessageFactory.fromWire(wire, in.deliveryCount(), in.partition());
        consumer.grantCredit(1, in.size());
        connection.statistics().received();
        synchronized (unsettled) {
            unsettled.add(in.deliveryId());
        }
        if (mode() == CLIENT_ACKNOWLEDGE) {
            m.setAcknowledger(this::acknowledgeAll);
        }
        return m;
    }

    /**
     * A large message, its body read from the node first: the application gets it whole, before it is
     * acknowledged. A body that cannot be read hands the delivery back, redelivered.
     */
    private PartitaMessage withLargeBody(PartitaMessageConsumer consumer, Incoming in, WireMessage wire, long length)
            throws JMSException {
        try {
            org.partita.jms.message.LargeBody body = LargeBodyTransfer.download(
                    connection.transport(), in.deliveryId(), length, LARGE_BODY_IN_MEMORY_BYTES);
            return MessageFactory.fromWire(wire, in.deliveryCount(), in.partition(), body);
        } catch (JMSException | java.io.IOException e) {
            consumer.grantCredit(1, in.size());
            connection.transport().release(id, new long[] {in.deliveryId()}, new long[0]);
            JMSException j = new JMSException("the body of large message " + wire.messageId() + " could not be read ("
                    + e.getMessage() + "); it was handed back and comes again");
            j.initCause(e);
            throw j;
        }
    }

    /** A message taken by {@link #take} goes back to the buffer untouched (receiveBody could not convert it). */
    void untake(Incoming in) {
        connection.statistics().unreceived();
        settleAuto(in);
    }

    /** After receive() returned or onMessage() completed: auto modes acknowledge now, unless recovered meanwhile. */
    void consumed(Incoming in) {
        if (settleAuto(in)) {
            connection.transport().ack(id, new long[] {in.deliveryId()}, false);
        }
    }

    /**
     * onMessage() threw: in the auto modes the message comes straight back, redelivered (JMS 8.7).
     * What was prefetched after it goes back with it, as for a recover: later messages of its key
     * may wait in the buffer, and would otherwise be processed before it comes back.
     */
    void listenerFailed(Incoming in) {
        if (mode() != SESSION_TRANSACTED && settleAuto(in)) {
            try {
                handBack(new long[] {in.deliveryId()});
            } catch (JMSException e) {
                org.slf4j.LoggerFactory.getLogger(PartitaSession.class)
                        .warn("could not hand back a message whose listener threw: {}", e.getMessage());
            }
        }
    }

    /**
     * Whether each message is settled with the node as soon as the application consumed it: in the
     * auto modes (and in an XA session, whose branch then holds it).
     */
    boolean settlesEachMessage() {
        int m = mode();
        return m == AUTO_ACKNOWLEDGE || m == DUPS_OK_ACKNOWLEDGE;
    }

    /** Where each message is settled at once: takes the delivery out of the unsettled ones; false if a recover already handed it back. */
    private boolean settleAuto(Incoming in) {
        if (!settlesEachMessage()) {
            return false;
        }
        synchronized (unsettled) {
            return unsettled.remove(Long.valueOf(in.deliveryId()));
        }
    }

    void acknowledgeAll() throws JMSException {
        checkOpen();
        long[] ids = drainUnsettled();
        if (ids.length > 0) {
            JmsExceptions.await(connection.transport().ack(id, ids, true));
        }
    }

    /**
     * Acknowledges what the application consumed and has not settled, without waiting: within a
     * transaction (local or an XA branch) the node counts it in before any later frame of this
     * connection, such as the commit or the end of the branch.
     */
    void acknowledgeIntoTransaction() {
        long[] ids = drainUnsettled();
        if (ids.length > 0) {
            connection.transport().ack(id, ids, false);
        }
    }

    private long[] drainUnsettled() {
        synchronized (unsettled) {
            long[] ids = unsettled.stream().mapToLong(Long::longValue).toArray();
            unsettled.clear();
            return ids;
        }
    }

    /**
     * Gives back everything seen and unsettled (redelivered) and everything prefetched (unseen), as
     * one node operation, so deliveries still on the wire cannot overtake the ones handed back.
     */
    void releaseAll() throws JMSException {
        handBack(drainUnsettled());
    }

    /** {@code seen} comes back redelivered, everything else delivered to the session unseen. */
    private void handBack(long[] seen) throws JMSException {
        long fence = JmsExceptions.await(connection.transport().recover(id, seen));
        for (PartitaMessageConsumer c : consumers) {
            c.dropUpTo(fence);
        }
    }

    void resumeDelivery() {
        for (PartitaMessageConsumer c : consumers) {
            c.scheduleListener();
        }
    }

    /** The connection started: consumers give the node room again. */
    List<CompletableFuture<Void>> connectionStarted() {
        List<CompletableFuture<Void>> inPlace = new ArrayList<>();
        for (PartitaMessageConsumer c : consumers) {
            inPlace.add(c.connectionStarted());
        }
        resumeDelivery();
        return inPlace;
    }

    /** The connection stopped: consumers take their room back and return what they buffered. */
    List<CompletableFuture<Void>> connectionStopped() {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (PartitaMessageConsumer c : consumers) {
            done.add(c.connectionStopped());
        }
        return done;
    }

    void awaitListenersIdle() {
        dispatcher.awaitIdle(30_000);
    }

    // ---- transactions and recovery -------------------------------------------------------

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return mode() == SESSION_TRANSACTED;
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        checkOpen();
        return mode();
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        if (mode() != SESSION_TRANSACTED) {
            throw new IllegalStateException("commit() needs a transacted session");
        }
        refuseInCompletionListener("commit the transaction");
        Throwable failedSend = awaitPendingSends();
        // A send lost with its node (the connection failed over) voided the transaction: the commit
        // itself fails for that, with PARTITA_FAILOVER, whether the send's answer came before or not.
        if (failedSend != null && !lostWithItsNode(failedSend)) {
            rollback();
            TransactionRolledBackException e = new TransactionRolledBackException(
                    "a send of this transaction failed, so it was rolled back: " + failedSend.getMessage(),
                    failedSend instanceof JMSException j ? j.getErrorCode() : null);
            e.initCause(failedSend);
            throw e;
        }
        acknowledgeIntoTransaction();
        try {
            JmsExceptions.await(connection.transport().commit(id));
        } catch (TransactionRolledBackException refused) {
            // The node rolled it back (a queue it sends to is full, say): what it consumed comes back
            // there, and what this session prefetched behind it goes back too, or a key's later
            // messages would reach the application first.
            try {
                releaseAll();
                resumeDelivery();
            } catch (JMSException e) {
                refused.addSuppressed(e);
            }
            throw refused;
        }
    }

    private static boolean lostWithItsNode(Throwable failedSend) {
        return failedSend instanceof JMSException j
                && org.partita.jms.api.PartitaErrorCodes.NODE_LOST.equals(j.getErrorCode());
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        if (mode() != SESSION_TRANSACTED) {
            throw new IllegalStateException("rollback() needs a transacted session");
        }
        refuseInCompletionListener("roll back the transaction");
        awaitPendingSends();
        releaseAll();
        JmsExceptions.await(connection.transport().rollback(id));
        resumeDelivery();
    }

    @Override
    public void recover() throws JMSException {
        checkOpen();
        if (mode() == SESSION_TRANSACTED) {
            throw new IllegalStateException("recover() is not for a transacted session; use rollback()");
        }
        releaseAll();
        resumeDelivery();
    }

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        if (dispatcher.isDispatchThread()) {
            throw new IllegalStateException("a message listener may not close its own session");
        }
        if (inCompletionListener()) {
            throw new IllegalStateException("a completion listener may not close its own session");
        }
        for (PartitaMessageConsumer c : consumers) {
            c.close();
        }
        dispatcher.awaitIdle(30_000);
        awaitPendingSends();
        closed = true;
        producers.forEach(PartitaMessageProducer::markClosed);
        connection.removeSession(this);
        if (!connection.isClosed() && connection.failure() == null) {
            try {
                JmsExceptions.await(connection.transport().closeSession(id));
            } catch (JMSException e) {
                connection.closeFailed("session " + id, e);
            }
        }
    }

    // ---- factories ------------------------------------------------------------------------

    @Override
    public MessageProducer createProducer(Destination destination) throws JMSException {
        checkOpen();
        PartitaDestination d = checkDestination(destination, true);
        declareIfOptioned(d);
        PartitaMessageProducer p = new PartitaMessageProducer(this, d);
        producers.add(p);
        return p;
    }

    /**
     * A queue name with options creates the queue (or is checked against it) when a producer is
     * created, as when a consumer is: a consumer of an AppId created next finds the fan-out queue,
     * and conflicting options fail here rather than on the first send.
     */
    private void declareIfOptioned(PartitaDestination d) throws JMSException {
        if (d != null
                && d.kind() == org.partita.protocol.DestinationName.Kind.QUEUE
                && d.name().indexOf('?') >= 0) {
            JmsExceptions.await(connection.transport().destinationOp(Frame.OP_DECLARE_QUEUE, d.encode()));
        }
    }

    void removeProducer(PartitaMessageProducer p) {
        producers.remove(p);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination) throws JMSException {
        return createConsumer(destination, null, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector) throws JMSException {
        return createConsumer(destination, messageSelector, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        checkOpen();
        PartitaDestination d = checkDestination(destination, false);
        return openConsumer(d, messageSelector, null, noLocal ? Frame.FLAG_NO_LOCAL : 0);
    }

    PartitaMessageConsumer openConsumer(PartitaDestination d, String selector, String subscription, int flags)
            throws JMSException {
        checkOpen();
        validateSelector(selector);
        PartitaMessageConsumer c = new PartitaMessageConsumer(this, connection.nextConsumerId(), d, selector);
        connection.register(c);
        consumers.add(c);
        try {
            JmsExceptions.await(c.credit()
                    .announce(
                            connection.isStarted(),
                            credit -> connection
                                    .transport()
                                    .openConsumer(new org.partita.jms.transport.BrokerConnection.ConsumerSpec(
                                            id,
                                            c.id(),
                                            d.encode(),
                                            blankToNull(selector),
                                            subscription,
                                            flags,
                                            credit,
                                            c.credit().windowBytes()))));
        } catch (JMSException e) {
            consumers.remove(c);
            connection.unregister(c);
            throw e;
        }
        return c;
    }

    void removeConsumer(PartitaMessageConsumer c) {
        consumers.remove(c);
    }

    static void validateSelector(String selector) throws JMSException {
        try {
            Selector.parse(selector);
        } catch (SelectorException e) {
            throw new jakarta.jms.InvalidSelectorException(e.getMessage());
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    static PartitaDestination checkDestination(Destination d, boolean nullAllowed) throws JMSException {
        if (d == null) {
            if (nullAllowed) {
                return null;
            }
            throw new InvalidDestinationException("destination must not be null");
        }
        return PartitaDestination.of(d);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        domain.queueOnly("createBrowser");
        checkOpen();
        PartitaDestination d = checkDestination(queue, false);
        validateSelector(messageSelector);
        return new PartitaQueueBrowser(this, (Queue) d, blankToNull(messageSelector));
    }

    @Override
    public Queue createQueue(String queueName) throws JMSException {
        domain.queueOnly("createQueue");
        checkOpen();
        if (queueName == null || queueName.isBlank()) {
            throw new InvalidDestinationException("queue name must not be empty");
        }
        return new PartitaQueue(queueName);
    }

    @Override
    public Topic createTopic(String topicName) throws JMSException {
        domain.topicOnly("createTopic");
        checkOpen();
        if (topicName == null || topicName.isBlank()) {
            throw new InvalidDestinationException("topic name must not be empty");
        }
        return new PartitaTopic(topicName);
    }

    @Override
    public TemporaryQueue createTemporaryQueue() throws JMSException {
        domain.queueOnly("createTemporaryQueue");
        checkOpen();
        String name = JmsExceptions.await(connection.transport().destinationOp(Frame.OP_CREATE_TEMP_QUEUE, null));
        return new PartitaTemporaryQueue(name, connection);
    }

    @Override
    public TemporaryTopic createTemporaryTopic() throws JMSException {
        domain.topicOnly("createTemporaryTopic");
        checkOpen();
        String name = JmsExceptions.await(connection.transport().destinationOp(Frame.OP_CREATE_TEMP_TOPIC, null));
        return new PartitaTemporaryTopic(name, connection);
    }

    @Override
    public BytesMessage createBytesMessage() throws JMSException {
        checkOpen();
        return new PartitaBytesMessage();
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        checkOpen();
        return new PartitaMapMessage();
    }

    @Override
    public Message createMessage() throws JMSException {
        checkOpen();
        return new PartitaMessage();
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        checkOpen();
        return new PartitaObjectMessage();
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        checkOpen();
        return new PartitaObjectMessage(object);
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        checkOpen();
        return new PartitaStreamMessage();
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        checkOpen();
        return new PartitaTextMessage();
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        checkOpen();
        return new PartitaTextMessage(text);
    }

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return null;
    }

    /**
     * Null is the state every session is in, so setting it succeeds (pooled-jms resets every session
     * it takes back this way); a listener itself is for application servers.
     */
    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        if (listener != null) {
            throw new JMSException(
                    "session-level message listeners are for application servers; set a listener on a consumer");
        }
    }

    @Override
    public void run() {
        throw new UnsupportedOperationException("Session.run() is for application servers");
    }

    // ---- topics: subscriptions ------------------------------------------------------------

    @Override
    public TopicSubscriber createSubscriber(Topic topic) throws JMSException {
        return (TopicSubscriber) createConsumer(topic);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic, String messageSelector, boolean noLocal) throws JMSException {
        return (TopicSubscriber) createConsumer(topic, messageSelector, noLocal);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        return (TopicSubscriber)
                subscribe(topic, name, messageSelector, Frame.FLAG_DURABLE | (noLocal ? Frame.FLAG_NO_LOCAL : 0));
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        return createDurableSubscriber(topic, name, messageSelector, noLocal);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        return createSharedConsumer(topic, sharedSubscriptionName, null);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        return subscribe(topic, sharedSubscriptionName, messageSelector, Frame.FLAG_SHARED);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        return createSharedDurableConsumer(topic, name, null);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector)
            throws JMSException {
        return subscribe(topic, name, messageSelector, Frame.FLAG_SHARED | Frame.FLAG_DURABLE);
    }

    private MessageConsumer subscribe(Topic topic, String name, String selector, int flags) throws JMSException {
        domain.topicOnly("durable and shared subscriptions");
        checkOpen();
        PartitaDestination d = checkDestination(topic, false);
        if (name == null || name.isEmpty()) {
            throw new jakarta.jms.InvalidDestinationException("subscription name must not be empty");
        }
        if ((flags & Frame.FLAG_DURABLE) != 0 && (flags & Frame.FLAG_SHARED) == 0 && connection.getClientID() == null) {
            throw new IllegalStateException("an unshared durable subscription needs a client id on the connection");
        }
        return openConsumer(d, selector, name, flags);
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        domain.topicOnly("unsubscribe");
        checkOpen();
        JmsExceptions.await(connection.transport().destinationOp(Frame.OP_UNSUBSCRIBE, name));
    }

    // ---- queue/topic session shapes -------------------------------------------------------

    @Override
    public QueueReceiver createReceiver(Queue queue) throws JMSException {
        return (QueueReceiver) createConsumer(queue);
    }

    @Override
    public QueueReceiver createReceiver(Queue queue, String messageSelector) throws JMSException {
        return (QueueReceiver) createConsumer(queue, messageSelector);
    }

    @Override
    public QueueSender createSender(Queue queue) throws JMSException {
        return (QueueSender) createProducer(queue);
    }

    @Override
    public TopicPublisher createPublisher(Topic topic) throws JMSException {
        return (TopicPublisher) createProducer(topic);
    }
}
