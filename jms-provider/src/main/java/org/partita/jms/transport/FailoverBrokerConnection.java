package org.partita.jms.transport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.ProviderProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection to one of several nodes that, when its node is lost, carries on with another: a
 * {@link BrokerConnection} made of one transport per node in turn ({@link NodeLink}), behind the same seam
 * as a plain one, so the JMS facade does not know which it has.
 *
 * <p>It connects to the first node of the list that accepts the handshake. When that node is lost,
 * it tries the nodes after it in the list, then those before it, the lost one last, round after
 * round with a growing pause, until one accepts or {@code failoverTimeout} is up. On the new node it
 * opens again, under the same ids, every session, declared queue and consumer the facade has open
 * (durable and shared subscriptions by name), then grants each consumer the credit the facade had
 * given it and the lost node had not used, so a started connection's consumers get their window back
 * and a stopped one's get none. What the facade asked meanwhile waits, in order, and runs on the new
 * node; then the facade hears {@link ConnectionListener#onFailover}.
 *
 * <p>What the lost node held is void: a request on its way fails with {@link PartitaErrorCodes#NODE_LOST}
 * (a send may or may not have been stored), except a persistent send ({@link #sendAgainIfLost}) and a
 * transaction that only sent, which are made again on the next node ({@link #commit}); a transaction
 * that received there fails its next commit with {@link ErrorCode#TRANSACTION_ROLLED_BACK}, and
 * acknowledging its deliveries does nothing (see {@link DeliveryIds}): the lost node delivers them again
 * when it returns. Consumers of a temporary destination are not re-created: it existed on the lost
 * node only. When no node accepts in time, the facade hears {@link ConnectionListener#onFailure}.
 */
public final class FailoverBrokerConnection implements BrokerConnection {
    private static final Logger LOG = LoggerFactory.getLogger(FailoverBrokerConnection.class);
    /** At most this many calls wait for the next node; beyond, a call fails at once instead of filling the heap. */
    static final int MAX_WAITING_CALLS = 10_000;

    private final NodeList nodes;
    private final NodeConnector connector;
    private final long attemptTimeoutMillis;
    private final long failoverTimeoutMillis;
    private final boolean sendAgain;
    private final ReplayLog log = new ReplayLog();
    private final DeliveryIds ids = new DeliveryIds();
    private volatile ConnectionListener listener;

    private final Object lock = new Object();
    private final NonZeroIds uploadIds = new NonZeroIds();
    /** The node in use; null before the first connect and while failing over. Guarded by lock. */
    private NodeLink live;
    /** Links made so far; each has the next number. Guarded by lock. */
    private long epochs;
    /** Delivery id base of the node in use (or of the next one, while failing over). Guarded by lock. */
    private long base;
    /** Calls made while failing over, run on the next node in order. Guarded by lock. */
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();

    private Reconnection reconnection;
    private boolean closed;
    /** Set when failing over gave up: the connection is lost. */
    private BrokerError failure;

    /**
     * @param attemptTimeoutMillis what one node gets to accept (connect and handshake): the URL's
     *                             {@code connectTimeout}, 0 for no limit
     * @param failoverTimeoutMillis how long a failover tries before the connection fails, 0 for no limit
     */
    public FailoverBrokerConnection(
            List<NodeAddress> nodes, NodeConnector connector, long attemptTimeoutMillis, long failoverTimeoutMillis) {
        this(nodes, connector, attemptTimeoutMillis, failoverTimeoutMillis, true);
    }

    /** @param sendAgain whether a persistent send lost with its node is made again on the next one ({@link #sendAgainIfLost}) */
    public FailoverBrokerConnection(
            List<NodeAddress> nodes,
            NodeConnector connector,
            long attemptTimeoutMillis,
            long failoverTimeoutMillis,
            boolean sendAgain) {
        this.sendAgain = sendAgain;
        this.nodes = new NodeList(nodes);
        this.connector = connector;
        this.attemptTimeoutMillis = attemptTimeoutMillis;
        this.failoverTimeoutMillis = failoverTimeoutMillis;
    }

    /** A call made while failing over: what it does on the next node, and how it fails if there is none. */
    private record Waiting(Runnable onNode, Consumer<BrokerError> refused) {}

    /** Nodes a send lost before its answer is made on, at most, before it fails in doubt. */
    private static final int MAX_SENDS = 3;

    // ---- connecting and failing over ---------------------------------------------------------------

    /** The first node of the list that accepts the handshake; fails naming what each node said. */
    @Override
    public CompletableFuture<Void> open(String user, String password, String clientId) {
        log.login(new Login(user, password, clientId));
        Map<NodeAddress, BrokerError> refusals = new LinkedHashMap<>();
        for (NodeAddress address : nodes.nodes()) {
            NodeLink link = newLink(address);
            try {
                link.node = connector.connect(address, log.login(), link, attemptTimeoutMillis);
                synchronized (lock) {
                    if (!link.node.isOpen()) {
                        throw new BrokerError(ErrorCode.INTERNAL, "the node closed the connection after the handshake");
                    }
                    live = link;
                }
                return CompletableFuture.completedFuture(null);
            } catch (BrokerError e) {
                link.active = false;
                refusals.put(address, e);
            }
        }
        return CompletableFuture.failedFuture(nodes.noneAccepted(refusals));
    }

    private NodeLink newLink(NodeAddress address) {
        synchronized (lock) {
            return new NodeLink(address, ++epochs, base, log, ids, () -> listener, this::nodeLost);
        }
    }

    /** A link reported its node gone. Only the link in use starts a failover; one being set up is its attempt's business. */
    private void nodeLost(NodeLink link, BrokerError cause) {
        List<Integer> owners;
        Reconnection r;
        synchronized (lock) {
            boolean inUse = link == live;
            link.active = false;
            if (!inUse || closed) {
                return;
            }
            live = null;
            base = ids.highest();
            owners = log.nodeLost(link.epoch, sendsAgain());
            reconnection = new Reconnection(this, link.address, cause, failoverTimeoutMillis);
            r = reconnection;
        }
        LOG.warn("lost node {} ({}); failing over to another node of {}", link.address, cause.getMessage(), nodes);
        ConnectionListener l = listener;
        for (int consumer : owners) {
            if (l != null) {
                l.onPartitions(consumer, new int[0]); // the lost node's partitions are no one's here any more
            }
        }
        r.start();
    }

    NodeList nodes() {
        return nodes;
    }

    boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /**
     * Connects to {@code address} and opens there again what the facade has open, without credit.
     * Throws, having closed the attempt, if the node refuses or does not answer before {@code deadline}.
     */
    Replay.Outcome attempt(NodeAddress address, long deadlineNanos) {
        NodeLink link = newLink(address);
        long left = Replay.millisLeft(deadlineNanos);
        long timeout = left == Long.MAX_VALUE
                ? attemptTimeoutMillis // 0: neither limits it
                : Math.max(1, attemptTimeoutMillis == 0 ? left : Math.min(attemptTimeoutMillis, left));
        link.node = connector.connect(address, log.login(), link, timeout);
        try {
            return new Replay(link, log, deadlineNanos).run();
        } catch (RuntimeException e) {
            link.active = false;
            link.node.close();
            throw e;
        }
    }

    /**
     * Makes a replayed link the one in use: closes there what the facade closed during the replay,
     * grants each consumer its credit, runs the calls that waited. Throws if the link was lost
     * meanwhile; false if the connection was closed.
     */
    boolean switchTo(Replay.Outcome replayed) {
        NodeLink link = replayed.link();
        synchronized (lock) {
            if (closed) {
                link.active = false;
                link.node.close();
                return false;
            }
            if (link.gone()) {
                throw new BrokerError(ErrorCode.INTERNAL, "the node closed the connection during the failover");
            }
            BrokerConnection node = link.node;
            // before any credit: a delivery to a transacted session makes its transaction one that received
            makeTransactionsAgain(link);
            for (int consumer : replayed.consumers()) {
                if (log.detached(consumer) || !log.hasConsumer(consumer)) {
                    node.closeConsumer(consumer);
                } else if (log.creditOf(consumer) > 0) {
                    node.credit(consumer, log.creditOf(consumer));
                }
            }
            for (int session : replayed.sessions()) {
                if (!log.hasSession(session)) {
                    node.closeSession(session);
                }
            }
            live = link;
            reconnection = null;
            Waiting call;
            while ((call = waiting.poll()) != null) {
                try {
                    call.onNode().run();
                } catch (RuntimeException e) { // one bad call must not leave the others waiting for ever
                    call.refused()
                            .accept(new BrokerError(
                                    ErrorCode.INTERNAL, "the call failed on node " + link.address + ": " + e));
                }
            }
            return true;
        }
    }

    /**
     * Sends again, on the node just switched to, the sends of each transaction the lost node had and
     * that only sent: ahead of the calls that waited, so its later sends and its commit come after.
     * Marked {@link ProviderProperties#SENT_AGAIN} when its commit was on its way to the lost node,
     * which may have made it. Under lock.
     */
    private void makeTransactionsAgain(NodeLink link) {
        for (ReplayLog.MadeAgain t : log.toMakeAgain(link.epoch)) {
            LOG.info(
                    "making a transaction of {} sends again on node {}",
                    t.sends().size(),
                    link.address);
            List<CompletableFuture<Void>> answers = new ArrayList<>();
            for (byte[] message : t.sends()) {
                answers.add(link.node.send(
                        t.sessionId(),
                        t.marked()
                                ? MessageCodec.withProperty(message, ProviderProperties.SENT_AGAIN, Boolean.TRUE)
                                : message,
                        true));
            }
            log.madeAgain(t.sessionId(), CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)));
        }
    }

    /** The facade hears of the switch once the new node is in use. */
    void switched(NodeLink link, String report) {
        if (isClosed()) {
            return;
        }
        LOG.warn(report);
        ConnectionListener l = listener;
        if (l != null) {
            l.onFailover(link.base, new BrokerError(ErrorCode.INTERNAL, PartitaErrorCodes.FAILOVER, report));
        }
    }

    /** No node accepted in time: the connection is lost, as a plain one would be. */
    void gaveUp(BrokerError cause) {
        List<Waiting> refused;
        synchronized (lock) {
            if (closed) {
                return;
            }
            failure = cause;
            reconnection = null;
            refused = new ArrayList<>(waiting);
            waiting.clear();
        }
        LOG.error(cause.getMessage());
        refused.forEach(w -> w.refused().accept(cause));
        ConnectionListener l = listener;
        if (l != null) {
            l.onFailure(cause);
        }
    }

    // ---- calls of the facade -------------------------------------------------------------------------

    /**
     * Runs {@code request} on the node in use, or makes it wait for the next one. {@code ifLost} is what
     * the call comes to when its node is lost before answering; null: it fails with NODE_LOST.
     */
    private <T> CompletableFuture<T> call(
            String what, Function<NodeLink, CompletableFuture<T>> request, Supplier<T> ifLost) {
        synchronized (lock) {
            if (live != null) {
                return relayed(live, request.apply(live), what, ifLost);
            }
            CompletableFuture<T> result = new CompletableFuture<>();
            BrokerError refusal = refusal();
            if (refusal != null) {
                result.completeExceptionally(refusal);
                return result;
            }
            waiting.add(new Waiting(
                    () -> relayed(live, request.apply(live), what, ifLost).whenComplete((v, t) -> {
                        if (t == null) {
                            result.complete(v);
                        } else {
                            result.completeExceptionally(t);
                        }
                    }),
                    result::completeExceptionally));
            return result;
        }
    }

    /** Why a call cannot wait for the next node, or null if it can. Under lock. */
    private BrokerError refusal() {
        if (closed) {
            return new BrokerError(ErrorCode.ILLEGAL_STATE, "the connection is closed");
        }
        if (failure != null) {
            return failure;
        }
        if (waiting.size() >= MAX_WAITING_CALLS) {
            return new BrokerError(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    MAX_WAITING_CALLS + " requests already wait for the"
                            + " connection to fail over to another node of " + nodes);
        }
        return null;
    }

    /** The node's answer; a failure because the node was lost becomes {@code ifLost}, or NODE_LOST. */
    private <T> CompletableFuture<T> relayed(
            NodeLink link, CompletableFuture<T> answer, String what, Supplier<T> ifLost) {
        CompletableFuture<T> out = new CompletableFuture<>();
        answer.whenComplete((v, t) -> {
            if (t == null) {
                out.complete(v);
            } else if (!link.gone()) {
                out.completeExceptionally(t);
            } else if (ifLost != null) {
                out.complete(ifLost.get());
            } else {
                out.completeExceptionally(lostBeforeAnswer(link, what));
            }
        });
        return out;
    }

    private BrokerError lostBeforeAnswer(NodeLink link, String what) {
        return new BrokerError(
                ErrorCode.INTERNAL,
                PartitaErrorCodes.NODE_LOST,
                "the connection to node " + link.address + " was lost before it answered " + what
                        + "; whether the node acted on it is unknown. The connection fails over to another node of "
                        + nodes);
    }

    /** A call without an answer: sent to the node in use, or run on the next one. */
    private void tell(Consumer<NodeLink> request) {
        synchronized (lock) {
            if (live != null) {
                request.accept(live);
                return;
            }
            BrokerError refusal = refusal();
            if (refusal == null) {
                waiting.add(new Waiting(() -> request.accept(live), e -> {}));
            } else if (!closed && failure == null) {
                ConnectionListener l = listener;
                if (l != null) {
                    l.onRequestFailed(refusal);
                }
            }
        }
    }

    @Override
    public void setListener(ConnectionListener listener) {
        this.listener = listener;
    }

    @Override
    public CompletableFuture<Void> openSession(int sessionId, boolean transacted) {
        return call(
                "opening session " + sessionId,
                l -> l.node.openSession(sessionId, transacted).thenApply(v -> {
                    log.sessionOpened(sessionId, transacted);
                    return v;
                }),
                null);
    }

    @Override
    public CompletableFuture<Void> closeSession(int sessionId) {
        synchronized (lock) {
            log.sessionClosed(sessionId);
            if (live == null) {
                return CompletableFuture.completedFuture(null); // the next node will not have it
            }
            return relayed(live, live.node.closeSession(sessionId), "closing session " + sessionId, () -> null);
        }
    }

    /** Waits on the live node's credit, outside the lock: acknowledgements must get through meanwhile. */
    @Override
    public void awaitSendRoom(int bytes) {
        NodeLink l;
        synchronized (lock) {
            l = live;
        }
        if (l != null) {
            l.node.awaitSendRoom(bytes);
        }
    }

    @Override
    public CompletableFuture<Void> send(int sessionId, byte[] message, boolean confirm) {
        if (!confirm) {
            tell(l -> {
                log.work(sessionId, l.epoch);
                if (sendsAgain()) {
                    log.transactionSent(sessionId, message);
                }
                l.node.send(sessionId, message, false);
            });
            return CompletableFuture.completedFuture(null);
        }
        if (log.transacted(sessionId)) {
            return sendInTransaction(sessionId, message);
        }
        return call(
                "the send (the message may or may not have been stored there)",
                l -> {
                    log.work(sessionId, l.epoch);
                    return l.node.send(sessionId, message, true);
                },
                null);
    }

    /**
     * A transacted send: kept for the next node ({@link #makeTransactionsAgain}). Lost with its node, it
     * succeeds once its transaction was made again on the next node (with the answers to the sends
     * made again there), and fails with NODE_LOST only when the transaction could not be.
     */
    private CompletableFuture<Void> sendInTransaction(int sessionId, byte[] message) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        Consumer<NodeLink> send = link -> {
            log.work(sessionId, link.epoch);
            if (sendsAgain()) {
                log.transactionSent(sessionId, message);
            }
            link.node.send(sessionId, message, true).whenComplete((v, t) -> {
                if (t == null) {
                    result.complete(null);
                } else if (!link.gone()) {
                    log.transactionSendRefused(sessionId, message);
                    result.completeExceptionally(t);
                } else {
                    settleLostSend(sessionId, link, result);
                }
            });
        };
        synchronized (lock) {
            if (live != null) {
                send.accept(live);
                return result;
            }
            BrokerError refusal = refusal();
            if (refusal != null) {
                return CompletableFuture.failedFuture(refusal);
            }
            waiting.add(new Waiting(() -> send.accept(live), result::completeExceptionally));
        }
        return result;
    }

    /**
     * A transacted send lost with {@code lost}: it succeeds with the sends its transaction made again on
     * the next node, settled again if that node is lost too; it fails with NODE_LOST when the
     * transaction could not be made again.
     */
    private void settleLostSend(int sessionId, NodeLink lost, CompletableFuture<Void> result) {
        onceSwitchedFrom(
                lost,
                () -> {
                    CompletableFuture<Void> madeAgain =
                            log.madeAgainAfter(sessionId, lost.epoch) ? log.madeAgainSends(sessionId) : null;
                    if (madeAgain == null) {
                        result.completeExceptionally(
                                lostBeforeAnswer(lost, "the send (the message may or may not have been stored there)"));
                        return;
                    }
                    NodeLink on = live;
                    madeAgain.whenComplete((again, failed) -> {
                        if (failed == null) {
                            result.complete(null);
                        } else if (on.gone()) {
                            settleLostSend(sessionId, on, result);
                        } else {
                            result.completeExceptionally(failed);
                        }
                    });
                },
                result::completeExceptionally);
    }

    /**
     * Runs {@code decide} under the lock once the connection no longer uses {@code lost}: at once if it
     * switched already, else with the calls that wait for the next node (a loss may be heard in an
     * answer before the link reports it, and what the switch makes again is known only after it).
     */
    private void onceSwitchedFrom(NodeLink lost, Runnable decide, Consumer<BrokerError> refused) {
        synchronized (lock) {
            if (live != null && live != lost) {
                decide.run();
                return;
            }
            BrokerError refusal = refusal();
            if (refusal != null) {
                refused.accept(refusal);
                return;
            }
            waiting.add(new Waiting(decide, refused));
        }
    }

    /**
     * A persistent send on its own, made again on the next node when its node is lost before it
     * answered (with several nodes to fail over to, unless {@code sendAgain=false} in the URL),
     * marked {@link ProviderProperties#SENT_AGAIN}: a replicated queue keeps one copy of a message it
     * receives again by JMSMessageID, so the application sees the send succeed once; a destination
     * that keeps one copy on one node refuses it ({@link ErrorCode#IN_DOUBT}), and the send fails
     * with {@link PartitaErrorCodes#NODE_LOST} as before (docs/cluster.md, "Sends made again after a
     * node is lost"). With one node, or after {@link #MAX_SENDS} tries, it fails with NODE_LOST too.
     */
    @Override
    public CompletableFuture<Void> sendAgainIfLost(int sessionId, byte[] message) {
        if (!sendsAgain()) {
            return send(sessionId, message, true);
        }
        CompletableFuture<Void> result = new CompletableFuture<>();
        sendOn(sessionId, message, null, MAX_SENDS, result);
        return result;
    }

    @Override
    public boolean sendsAgain() {
        return sendAgain && nodes.nodes().size() >= 2;
    }

    /** Sends on the node in use unless it is {@code lost}, else on the next one; again if that one is lost. */
    private void sendOn(int sessionId, byte[] message, NodeLink lost, int tries, CompletableFuture<Void> result) {
        synchronized (lock) {
            if (live != null && live != lost) {
                sendThrough(live, sessionId, message, tries, result);
                return;
            }
            BrokerError refusal = refusal();
            if (refusal != null) {
                result.completeExceptionally(refusal);
                return;
            }
            waiting.add(new Waiting(
                    () -> sendThrough(live, sessionId, message, tries, result), result::completeExceptionally));
        }
    }

    private void sendThrough(NodeLink link, int sessionId, byte[] message, int tries, CompletableFuture<Void> result) {
        log.work(sessionId, link.epoch);
        link.node.send(sessionId, message, true).whenComplete((v, t) -> {
            if (t == null) {
                result.complete(null);
            } else if (!link.gone()) {
                Throwable why = t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                        ? t.getCause()
                        : t;
                result.completeExceptionally(
                        why instanceof BrokerError e && e.code() == ErrorCode.IN_DOUBT
                                ? new BrokerError(
                                        ErrorCode.INTERNAL,
                                        PartitaErrorCodes.NODE_LOST,
                                        "a node was lost before it answered the send, which was made again on node "
                                                + link.address + ": " + e.getMessage())
                                : t);
            } else if (tries > 1) {
                LOG.info("node {} was lost before it answered a send; sending it again on the next node", link.address);
                // marked, so that the next node keeps one copy, or says it cannot tell (ErrorCode.IN_DOUBT)
                byte[] again = tries == MAX_SENDS
                        ? MessageCodec.withProperty(message, ProviderProperties.SENT_AGAIN, Boolean.TRUE)
                        : message;
                sendOn(sessionId, again, link, tries - 1, result);
            } else {
                result.completeExceptionally(new BrokerError(
                        ErrorCode.INTERNAL,
                        PartitaErrorCodes.NODE_LOST,
                        "the send was made on " + MAX_SENDS + " nodes in turn and each was lost before it answered;"
                                + " whether one stored it is unknown"));
            }
        });
    }

    @Override
    public CompletableFuture<Void> openConsumer(ConsumerSpec spec) {
        synchronized (lock) {
            log.consumerOpening(spec);
        }
        return call(
                        "opening consumer " + spec.consumerId(),
                        l -> {
                            CompletableFuture<Void> opened = l.node.openConsumer(log.withCreditLeft(spec));
                            return opened.thenApply(v -> {
                                log.consumerOpened(spec.consumerId());
                                return v;
                            });
                        },
                        null)
                .whenComplete((v, t) -> {
                    if (t != null) {
                        log.consumerClosed(spec.consumerId());
                    }
                });
    }

    @Override
    public CompletableFuture<Void> closeConsumer(int consumerId) {
        synchronized (lock) {
            ReplayLog.Consumer known = log.consumerClosed(consumerId);
            if (live == null || (known != null && known.detached)) {
                return CompletableFuture.completedFuture(null); // no node has it
            }
            return relayed(live, live.node.closeConsumer(consumerId), "closing consumer " + consumerId, () -> null);
        }
    }

    @Override
    public CompletableFuture<Void> updateConsumer(
            int consumerId, Integer priority, Integer capacityMessages, Long capacityBytes) {
        if (log.detached(consumerId)) {
            return CompletableFuture.failedFuture(detached(consumerId));
        }
        return call(
                "updating consumer " + consumerId,
                l -> l.node.updateConsumer(consumerId, priority, capacityMessages, capacityBytes)
                        .thenApply(v -> {
                            log.updated(consumerId, priority, capacityMessages, capacityBytes);
                            return v;
                        }),
                null);
    }

    private static BrokerError detached(int consumerId) {
        return new BrokerError(
                ErrorCode.ILLEGAL_STATE,
                "consumer " + consumerId + " reads a temporary destination of"
                        + " a node that was lost; no other node has it, so the consumer receives nothing any more");
    }

    /** Counted even while failing over: the next node is granted what the facade gave and nothing used. */
    @Override
    public void credit(int consumerId, int messages) {
        synchronized (lock) {
            log.credit(consumerId, messages);
            if (live != null && !log.detached(consumerId)) {
                live.node.credit(consumerId, messages);
            }
        }
    }

    /** While failing over, what the lost node delivered is void: it is not to be handed out. */
    @Override
    public CompletableFuture<Void> heardLately() {
        synchronized (lock) {
            if (live == null) {
                return CompletableFuture.failedFuture(new BrokerError(
                        ErrorCode.INTERNAL,
                        PartitaErrorCodes.FAILOVER,
                        "the connection is failing over to another node"));
            }
            return live.node.heardLately();
        }
    }

    @Override
    public long unresponsiveUntil() {
        synchronized (lock) {
            return live == null ? Long.MIN_VALUE : live.node.unresponsiveUntil();
        }
    }

    /** A lost node delivers nothing more, so a drain it cannot answer is done. */
    @Override
    public CompletableFuture<Void> drain(int consumerId) {
        synchronized (lock) {
            log.drained(consumerId);
            if (live == null || log.detached(consumerId)) {
                return CompletableFuture.completedFuture(null);
            }
            return relayed(live, live.node.drain(consumerId), "the drain", () -> null);
        }
    }

    /**
     * Deliveries of a lost node are void: they are left out, so acknowledging them does nothing and
     * does not fail; in a transaction, it rolls the transaction back at its commit.
     */
    @Override
    public CompletableFuture<Void> ack(int sessionId, long[] deliveryIds, boolean confirm) {
        synchronized (lock) {
            long[] onNode = DeliveryIds.onNode(deliveryIds, base);
            if (onNode.length < deliveryIds.length) {
                log.voidIfTransacted(sessionId);
            }
            log.transactionNotRepeatable(sessionId);
            if (onNode.length == 0 || live == null) {
                return CompletableFuture.completedFuture(null);
            }
            log.work(sessionId, live.epoch);
            if (!confirm) {
                live.node.ack(sessionId, onNode, false);
                return CompletableFuture.completedFuture(null);
            }
            return relayed(live, live.node.ack(sessionId, onNode, true), "the acknowledgement", () -> null);
        }
    }

    @Override
    public CompletableFuture<Void> release(int sessionId, long[] redeliver, long[] unseen) {
        synchronized (lock) {
            long[] again = DeliveryIds.onNode(redeliver, base);
            long[] back = DeliveryIds.onNode(unseen, base);
            if ((again.length == 0 && back.length == 0) || live == null) {
                return CompletableFuture.completedFuture(null);
            }
            return relayed(live, live.node.release(sessionId, again, back), "the release", () -> null);
        }
    }

    /** While failing over, everything delivered so far is void already: the fence is the base of the next node. */
    @Override
    public CompletableFuture<Long> recover(int sessionId, long[] seen) {
        synchronized (lock) {
            if (live == null) {
                BrokerError refusal = closed || failure != null ? refusal() : null;
                return refusal != null
                        ? CompletableFuture.failedFuture(refusal)
                        : CompletableFuture.completedFuture(base);
            }
            NodeLink link = live;
            return relayed(
                    link,
                    link.node
                            .recover(sessionId, DeliveryIds.onNode(seen, base))
                            .thenApply(fence -> ids.seen(link.base, fence)),
                    "the recover",
                    ids::highest);
        }
    }

    /**
     * A transaction that only sent, with work on a lost node, was made again on the next node as the
     * connection switched (its sends, in order, before anything else of the session); one that
     * acknowledged messages there cannot commit: the commit fails and the transaction is rolled back
     * on the node in use (after what waited before it), so nothing of it remains. A commit whose node
     * is lost before it answered is made again likewise, its sends marked
     * {@link ProviderProperties#SENT_AGAIN} so that a replicated queue keeps one copy of what the lost
     * commit stored ({@link #MAX_SENDS} nodes at most); otherwise it fails in doubt.
     */
    @Override
    public CompletableFuture<Void> commit(int sessionId) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        synchronized (lock) {
            if (log.voided(sessionId)) {
                log.transactionEnded(sessionId);
                tell(l -> l.node.rollback(sessionId));
                return CompletableFuture.failedFuture(new BrokerError(
                        ErrorCode.TRANSACTION_ROLLED_BACK,
                        PartitaErrorCodes.FAILOVER,
                        "the transaction was rolled back: it had received or sent messages on a node that was"
                                + " lost, and the connection failed over to another node (a transaction that only"
                                + " sent is made again on the next node, unless it sent a large body or more than "
                                + (ReplayLog.MAX_KEPT_BYTES >> 20) + " MiB, or the URL says sendAgain=false)"));
            }
            if (live != null) {
                commitThrough(live, sessionId, MAX_SENDS, result);
                return result;
            }
            BrokerError refusal = refusal();
            if (refusal != null) {
                return CompletableFuture.failedFuture(refusal);
            }
            waiting.add(new Waiting(
                    () -> commitThrough(live, sessionId, MAX_SENDS, result), result::completeExceptionally));
        }
        return result;
    }

    /** The commit on {@code link}, once the sends made again there (if any) were answered. Under lock. */
    private void commitThrough(NodeLink link, int sessionId, int tries, CompletableFuture<Void> result) {
        if (log.voided(sessionId)) {
            // it could not be made again on this node after all (it received meanwhile)
            failNotMadeAgain(
                    link, sessionId, "it received messages on the node in use before it could be made again", result);
            return;
        }
        CompletableFuture<Void> madeAgain = log.madeAgainSends(sessionId);
        if (madeAgain == null) {
            sendCommit(link, sessionId, tries, result);
            return;
        }
        madeAgain.whenComplete((v, t) -> {
            synchronized (lock) {
                if (link.gone()) {
                    // lost before the commit was sent there: the next node makes the transaction again
                    onceSwitchedFrom(
                            link, () -> commitThrough(live, sessionId, tries, result), result::completeExceptionally);
                } else if (t != null) {
                    // the next node refused a send of the transaction (a full queue, say): it cannot commit whole
                    failNotMadeAgain(
                            link,
                            sessionId,
                            "a send of it was refused there (" + unwrap(t).getMessage() + ")",
                            result);
                } else {
                    sendCommit(link, sessionId, tries, result); // on a lost link it fails and is made again below
                }
            }
        });
    }

    /**
     * A transaction with work on a lost node that could not be made again on {@code link}: rolled back
     * there; its commit fails rolled back, or in doubt when a commit of it was lost with its node.
     */
    private void failNotMadeAgain(NodeLink link, int sessionId, String why, CompletableFuture<Void> result) {
        boolean inDoubt = log.commitMayHaveBeenMade(sessionId);
        log.transactionEnded(sessionId);
        link.node.rollback(sessionId);
        String what =
                "the transaction could not be made again on node " + link.address + " after its node was lost: " + why;
        result.completeExceptionally(
                inDoubt
                        ? new BrokerError(
                                ErrorCode.INTERNAL,
                                PartitaErrorCodes.NODE_LOST,
                                what
                                        + "; its commit was lost with that node, so whether it was committed there is unknown")
                        : new BrokerError(
                                ErrorCode.TRANSACTION_ROLLED_BACK,
                                PartitaErrorCodes.FAILOVER,
                                what + "; the transaction was rolled back"));
    }

    private void sendCommit(NodeLink link, int sessionId, int tries, CompletableFuture<Void> result) {
        log.commitSent(sessionId, link.epoch);
        link.node.commit(sessionId).whenComplete((v, t) -> {
            if (t == null) {
                log.transactionEnded(sessionId);
                result.complete(null);
            } else if (!link.gone()) {
                log.transactionEnded(sessionId);
                Throwable why = unwrap(t);
                result.completeExceptionally(
                        why instanceof BrokerError e && e.code() == ErrorCode.IN_DOUBT
                                ? new BrokerError(
                                        ErrorCode.INTERNAL,
                                        PartitaErrorCodes.NODE_LOST,
                                        (tries < MAX_SENDS
                                                        ? "a node was lost before it answered the commit, which was"
                                                                + " made again on node "
                                                        : "the commit is in doubt on node ")
                                                + link.address + ": " + e.getMessage())
                                : t);
            } else {
                commitLostWith(link, sessionId, tries, result);
            }
        });
    }

    /**
     * The node of a commit was lost before it answered. Decided once the connection switched (the
     * loss may be heard here before the link reports it): made again on the node in use if the loss
     * made its transaction again there, else the commit fails in doubt.
     */
    private void commitLostWith(NodeLink lost, int sessionId, int tries, CompletableFuture<Void> result) {
        Runnable decide = () -> {
            boolean madeAgain = log.madeAgainAfter(sessionId, lost.epoch);
            if (madeAgain && tries > 1) {
                LOG.info(
                        "node {} was lost before it answered a commit; the transaction is made again on node {}",
                        lost.address,
                        live.address);
                commitThrough(live, sessionId, tries - 1, result);
                return;
            }
            if (madeAgain) {
                log.transactionEnded(sessionId);
                live.node.rollback(sessionId);
            } else {
                log.commitSettled(sessionId, lost.epoch);
            }
            result.completeExceptionally(new BrokerError(
                    ErrorCode.INTERNAL,
                    PartitaErrorCodes.NODE_LOST,
                    "the connection to node " + lost.address + " was lost before it answered the commit; whether"
                            + " the transaction was committed there is unknown"
                            + (madeAgain
                                    ? " (it was made on " + MAX_SENDS + " nodes in turn, each lost before it answered)"
                                    : " (a transaction that received messages, sent a large body or more than "
                                            + (ReplayLog.MAX_KEPT_BYTES >> 20)
                                            + " MiB is not made again on another node)")));
        };
        onceSwitchedFrom(lost, decide, e -> {
            log.commitSettled(sessionId, lost.epoch);
            result.completeExceptionally(e);
        });
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    @Override
    public CompletableFuture<Void> rollback(int sessionId) {
        log.transactionEnded(sessionId);
        return call("the rollback", l -> l.node.rollback(sessionId), () -> null);
    }

    @Override
    public boolean takesLargeBodies() {
        synchronized (lock) {
            return live == null || live.node.takesLargeBodies();
        }
    }

    @Override
    public int bodyPartBytes() {
        synchronized (lock) {
            return live == null ? BrokerConnection.super.bodyPartBytes() : live.node.bodyPartBytes();
        }
    }

    @Override
    public int newUploadId() {
        return uploadIds.next();
    }

    /**
     * A large body's parts and its message go to the node in use: a failover in the middle makes the
     * next part, or the message, fail there (the new node has not the parts before), and the send
     * fails; the application sends it again.
     */
    @Override
    public CompletableFuture<Void> sendBodyPart(int uploadId, long offset, byte[] data, boolean last) {
        return call("a large body's part", l -> l.node.sendBodyPart(uploadId, offset, data, last), null);
    }

    @Override
    public CompletableFuture<Void> sendWithBody(int sessionId, byte[] message, int uploadId, boolean confirm) {
        return call(
                "the send (the message may or may not have been stored there)",
                l -> {
                    log.work(sessionId, l.epoch);
                    log.transactionNotRepeatable(sessionId); // its body is on that node only
                    return l.node.sendWithBody(sessionId, message, uploadId, confirm);
                },
                null);
    }

    @Override
    public CompletableFuture<byte[]> readBody(long deliveryId, long offset, int length) {
        synchronized (lock) {
            long[] onNode = DeliveryIds.onNode(new long[] {deliveryId}, base);
            if (onNode.length == 0 || live == null) {
                return CompletableFuture.failedFuture(new BrokerError(
                        ErrorCode.INTERNAL,
                        "the node that delivered the large message was lost before its body was read; it is"
                                + " delivered again"));
            }
            return relayed(live, live.node.readBody(onNode[0], offset, length), "a large body's read", null);
        }
    }

    @Override
    public CompletableFuture<List<byte[]>> browse(String destination, String selector) {
        return call("the browse", l -> l.node.browse(destination, selector), null);
    }

    @Override
    public CompletableFuture<String> destinationOp(int op, String name) {
        return call(
                "destination operation " + op,
                l -> l.node.destinationOp(op, name).thenApply(v -> {
                    if (op == Frame.OP_SET_CLIENT_ID) {
                        log.clientId(name);
                    } else if (op == Frame.OP_DECLARE_QUEUE) {
                        log.declared(name);
                    }
                    return v;
                }),
                null);
    }

    @Override
    public CompletableFuture<String> admin(String command, String argument) {
        return call("admin command " + command, l -> l.node.admin(command, argument), null);
    }

    /**
     * An XA branch lives on the node that was in use when it started. A commit or rollback that
     * reaches another node after a failover is handed by that node to the member holding the branch;
     * while that member is down the answer is XAER_RMFAIL, and the transaction manager tries again.
     */
    @Override
    public CompletableFuture<Frame.XaResult> xa(java.util.function.IntFunction<Frame> request) {
        return call("an XA request", l -> l.node.xa(request), null);
    }

    @Override
    public CompletableFuture<List<org.partita.protocol.WireXid>> xaRecover() {
        return call("an XA recovery scan", l -> l.node.xaRecover(), null);
    }

    @Override
    public String nodeName() {
        synchronized (lock) {
            return live == null ? null : live.node.nodeName();
        }
    }

    @Override
    public CompletableFuture<Void> close() {
        NodeLink link;
        Reconnection r;
        List<Waiting> refused;
        synchronized (lock) {
            if (closed) {
                return CompletableFuture.completedFuture(null);
            }
            closed = true;
            link = live;
            live = null;
            r = reconnection;
            refused = new ArrayList<>(waiting);
            waiting.clear();
        }
        BrokerError why = new BrokerError(ErrorCode.ILLEGAL_STATE, "the connection was closed while failing over");
        refused.forEach(w -> w.refused().accept(why));
        if (r != null) {
            r.stop();
        }
        if (link == null) {
            return CompletableFuture.completedFuture(null);
        }
        link.active = false;
        return link.node.close();
    }

    @Override
    public boolean isOpen() {
        synchronized (lock) {
            return !closed && failure == null;
        }
    }

    /** The node in use, or null while failing over. */
    public NodeAddress node() {
        synchronized (lock) {
            return live == null ? null : live.address;
        }
    }
}
