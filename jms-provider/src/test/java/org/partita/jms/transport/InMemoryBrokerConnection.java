package org.partita.jms.transport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.MessageCodec;

/**
 * A network-free {@link BrokerConnection} for unit tests of the JMS facade: queues in memory, keyed
 * by the encoded destination a message names; credit-based delivery to consumers; acknowledgement,
 * release and recover of deliveries. Answers and deliveries come on one thread of its own, as a
 * transport's would. It is not a node: no transactions (sends are visible at once), no selectors,
 * no topics, no persistence.
 *
 * <p>Tests can make it refuse or never answer closes, refuse sends (confirmed ones with an answer,
 * unconfirmed ones with {@link ConnectionListener#onRequestFailed}, as a node does) and consumer
 * opens, stop answering, tell a consumer its partitions, and drop the connection: requests not yet
 * answered then fail, as on a real transport.
 */
public final class InMemoryBrokerConnection implements BrokerConnection {
    private final ExecutorService io = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "in-memory-transport");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Deque<byte[]>> queues = new HashMap<>();
    private final Map<Integer, Consumer> consumers = new LinkedHashMap<>();
    private final Map<Long, Delivered> unsettled = new LinkedHashMap<>();
    private final List<Integer> sessions = new ArrayList<>();
    private final List<String> declared = new ArrayList<>();
    private long deliveryIds;
    private volatile boolean open = true;
    private volatile ConnectionListener listener;
    private volatile Supplier<CompletableFuture<Void>> closeSessionAnswer;
    private volatile Supplier<CompletableFuture<Void>> closeConsumerAnswer;
    private volatile BrokerError sendRefusal;
    /** Set: the node stops answering at the next send (it takes the send, as a node that dies before it answers). */
    private volatile boolean silentAtNextSend;

    private final java.util.concurrent.atomic.AtomicInteger sendsTaken =
            new java.util.concurrent.atomic.AtomicInteger();
    private volatile BrokerError consumerRefusal;
    private final java.util.concurrent.CountDownLatch answering = new java.util.concurrent.CountDownLatch(1);
    private final List<ConsumerSpec> opened = new ArrayList<>();
    private final List<Long> acknowledged = new ArrayList<>();
    private final List<Long> releasedRedelivered = new ArrayList<>();
    private final List<Long> releasedUnseen = new ArrayList<>();
    private volatile Login login;
    /** What {@link #heardLately} answers: at once unless the node was made silent. */
    private volatile CompletableFuture<Void> heard = CompletableFuture.completedFuture(null);

    private record Consumer(int sessionId, String destination, int[] credit) {}

    private record Delivered(int sessionId, String destination, byte[] message) {}

    // ---- what tests control and observe ----------------------------------------------------------

    /** Closes of sessions are answered with this error from now on. */
    public void refuseSessionCloses(ErrorCode code, String message) {
        closeSessionAnswer = () -> CompletableFuture.failedFuture(new BrokerError(code, message));
    }

    /** Closes of consumers are answered with this error from now on. */
    public void refuseConsumerCloses(ErrorCode code, String message) {
        closeConsumerAnswer = () -> CompletableFuture.failedFuture(new BrokerError(code, message));
    }

    /** Closes of sessions are never answered from now on. */
    public void neverAnswerSessionCloses() {
        closeSessionAnswer = CompletableFuture::new;
    }

    /** Every send is refused from now on, as a node refuses a send to a full queue. */
    public void refuseSends(ErrorCode code, String message) {
        sendRefusal = new BrokerError(code, message);
    }

    /** Sends are taken again from now on. */
    public void acceptSends() {
        sendRefusal = null;
    }

    /** At the next send the node stops answering ({@link #stopAnswering}), that send unanswered too. */
    public void stopAnsweringAtNextSend() {
        silentAtNextSend = true;
    }

    /** Sends that reached this connection, refused or not. */
    public int sendsTaken() {
        return sendsTaken.get();
    }

    /** Returns once every request made so far has its answer (the node answers in order). */
    public void answeredSoFar() {
        answer(() -> null).join();
    }

    /** Consumer opens are refused with this error from now on. */
    public void refuseConsumerOpens(ErrorCode code, String message) {
        consumerRefusal = new BrokerError(code, message);
    }

    /** The node stops answering (its requests stay on their way) until the connection drops. */
    public void stopAnswering() {
        io.execute(() -> {
            try {
                answering.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * The node has been silent past its delivery lease: {@link #heardLately} waits for a ping's
     * answer, which comes with {@link #heardAgain} (or never, if the node is {@link #lostWhileSilent}).
     */
    public void goSilent() {
        heard = new CompletableFuture<>();
    }

    private volatile long unresponsiveUntil = Long.MIN_VALUE;

    /** The node answers now after having been unresponsive longer than an election. */
    public void wasUnresponsive() {
        unresponsiveUntil = System.nanoTime();
    }

    @Override
    public long unresponsiveUntil() {
        return unresponsiveUntil;
    }

    /** The silent node answers the ping. */
    public void heardAgain() {
        heard.complete(null);
    }

    /** The silent node's connection is given up: the ping fails. */
    public void lostWhileSilent() {
        heard.completeExceptionally(new BrokerError(ErrorCode.INTERNAL, "the node sent nothing: connection given up"));
    }

    @Override
    public CompletableFuture<Void> heardLately() {
        return heard;
    }

    /** Tells consumer {@code consumerId} it owns these partitions, as a node does. */
    public void announcePartitions(int consumerId, int... owned) {
        io.execute(() -> {
            ConnectionListener l = listener;
            if (l != null) {
                l.onPartitions(consumerId, owned);
            }
        });
    }

    /** The connection is lost, as when the node goes away: what it had not answered fails. */
    public void drop(String why) {
        open = false;
        answering.countDown();
        io.execute(() -> {
            ConnectionListener l = listener;
            if (l != null) {
                l.onFailure(new BrokerError(ErrorCode.INTERNAL, why));
            }
        });
    }

    /** Messages waiting (not delivered) for {@code destination}, encoded as the client names it. */
    public synchronized int waiting(String destination) {
        Deque<byte[]> q = queues.get(destination);
        return q == null ? 0 : q.size();
    }

    /** The messages waiting (not delivered) for {@code destination}, encoded, oldest first. */
    public synchronized List<byte[]> waitingMessages(String destination) {
        Deque<byte[]> q = queues.get(destination);
        return q == null ? List.of() : List.copyOf(q);
    }

    /** Deliveries neither acknowledged nor given back. */
    public synchronized int unsettled() {
        return unsettled.size();
    }

    public synchronized List<Integer> openSessions() {
        return List.copyOf(sessions);
    }

    /** Names the client declared (producers on queue names with options). */
    public synchronized List<String> declared() {
        return List.copyOf(declared);
    }

    /** What the client asked for when it opened consumers, in order. */
    public synchronized List<ConsumerSpec> openedConsumers() {
        return List.copyOf(opened);
    }

    /** Delivery ids the client acknowledged, in order, as this node numbered them. */
    public synchronized List<Long> acknowledged() {
        return List.copyOf(acknowledged);
    }

    /** Delivery ids the client gave back as seen by the application (to be flagged redelivered), in order. */
    public synchronized List<Long> releasedRedelivered() {
        return List.copyOf(releasedRedelivered);
    }

    /** Delivery ids the client gave back unseen (buffered only: not counted as delivered), in order. */
    public synchronized List<Long> releasedUnseen() {
        return List.copyOf(releasedUnseen);
    }

    /** Credit consumer {@code consumerId} has left, -1 if it is not open. */
    public synchronized int credit(int consumerId) {
        Consumer c = consumers.get(consumerId);
        return c == null ? -1 : c.credit[0];
    }

    /** What the client's handshake said. */
    public Login login() {
        return login;
    }

    // ---- BrokerConnection ------------------------------------------------------------------------

    @Override
    public CompletableFuture<Void> open(String user, String password, String clientId) {
        login = new Login(user, password, clientId);
        return answer(() -> null);
    }

    @Override
    public void setListener(ConnectionListener listener) {
        this.listener = listener;
    }

    @Override
    public CompletableFuture<Void> openSession(int sessionId, boolean transacted) {
        return answer(() -> {
            sessions.add(sessionId);
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> closeSession(int sessionId) {
        Supplier<CompletableFuture<Void>> special = closeSessionAnswer;
        if (special != null) {
            return special.get();
        }
        return answer(() -> {
            sessions.remove(Integer.valueOf(sessionId));
            consumers.values().removeIf(c -> c.sessionId == sessionId);
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> send(int sessionId, byte[] message, boolean confirm) {
        sendsTaken.incrementAndGet();
        if (silentAtNextSend) {
            silentAtNextSend = false;
            stopAnswering();
        }
        BrokerError refusal = sendRefusal;
        if (refusal != null) {
            if (confirm) {
                return answer(() -> {
                    throw refusal;
                });
            }
            io.execute(() -> {
                ConnectionListener l = listener;
                if (l != null) {
                    l.onRequestFailed(refusal);
                }
            });
            return CompletableFuture.completedFuture(null);
        }
        String destination = MessageCodec.decodeHeaders(message).destination();
        CompletableFuture<Void> stored = answer(() -> {
            queues.computeIfAbsent(destination, d -> new ArrayDeque<>()).addLast(message);
            dispatch();
            return null;
        });
        return confirm ? stored : CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> openConsumer(ConsumerSpec spec) {
        BrokerError refusal = consumerRefusal;
        return answer(() -> {
            if (refusal != null) {
                throw refusal;
            }
            opened.add(spec);
            consumers.put(
                    spec.consumerId(), new Consumer(spec.sessionId(), spec.destination(), new int[] {spec.credit()}));
            dispatch();
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> closeConsumer(int consumerId) {
        Supplier<CompletableFuture<Void>> special = closeConsumerAnswer;
        if (special != null) {
            return special.get();
        }
        return answer(() -> {
            consumers.remove(consumerId);
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> updateConsumer(
            int consumerId, Integer priority, Integer capacityMessages, Long capacityBytes) {
        return answer(() -> null);
    }

    @Override
    public void credit(int consumerId, int messages) {
        answer(() -> {
            Consumer c = consumers.get(consumerId);
            if (c != null) {
                c.credit[0] += messages;
                dispatch();
            }
            return null;
        });
    }

    /** Deliveries happen on the same thread, so the answer follows every one the credit allowed. */
    @Override
    public CompletableFuture<Void> drain(int consumerId) {
        return answer(() -> {
            Consumer c = consumers.get(consumerId);
            if (c != null) {
                c.credit[0] = 0;
            }
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> ack(int sessionId, long[] deliveryIds, boolean confirm) {
        CompletableFuture<Void> done = answer(() -> {
            for (long id : deliveryIds) {
                acknowledged.add(id);
                unsettled.remove(id);
            }
            return null;
        });
        return confirm ? done : CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> release(int sessionId, long[] redeliver, long[] unseen) {
        return answer(() -> {
            for (long id : redeliver) {
                releasedRedelivered.add(id);
            }
            for (long id : unseen) {
                releasedUnseen.add(id);
            }
            giveBack(redeliver);
            giveBack(unseen);
            dispatch();
            return null;
        });
    }

    @Override
    public CompletableFuture<Long> recover(int sessionId, long[] seen) {
        return answer(() -> {
            List<Long> ofSession = new ArrayList<>();
            unsettled.forEach((id, d) -> {
                if (d.sessionId == sessionId) {
                    ofSession.add(id);
                }
            });
            giveBack(ofSession.stream().mapToLong(Long::longValue).toArray());
            long fence = deliveryIds;
            dispatch();
            return fence;
        });
    }

    @Override
    public CompletableFuture<Void> commit(int sessionId) {
        return answer(() -> null);
    }

    @Override
    public CompletableFuture<Void> rollback(int sessionId) {
        return answer(() -> null);
    }

    @Override
    public CompletableFuture<List<byte[]>> browse(String destination, String selector) {
        return answer(() -> List.copyOf(queues.getOrDefault(destination, new ArrayDeque<>())));
    }

    @Override
    public CompletableFuture<String> destinationOp(int op, String name) {
        return answer(() -> {
            if (op == Frame.OP_DECLARE_QUEUE) {
                declared.add(name);
            }
            return op == Frame.OP_CREATE_TEMP_QUEUE ? "in-memory-temp-queue-" + sessions.size() : null;
        });
    }

    @Override
    public CompletableFuture<String> admin(String command, String argument) {
        return answer(() -> "");
    }

    @Override
    public CompletableFuture<Void> close() {
        open = false;
        answering.countDown();
        CompletableFuture<Void> closed = answer(() -> null);
        closed.whenComplete((v, t) -> io.shutdown());
        return closed;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    // ---- the "node" ------------------------------------------------------------------------------

    @FunctionalInterface
    private interface Work<T> {
        T run();
    }

    /** Runs {@code work} on the transport thread, under the lock, and answers with its result. */
    private <T> CompletableFuture<T> answer(Work<T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        if (!open) {
            f.completeExceptionally(new BrokerError(ErrorCode.INTERNAL, "connection to the node was closed"));
            return f;
        }
        io.execute(() -> {
            if (!open) {
                f.completeExceptionally(new BrokerError(ErrorCode.INTERNAL, "connection to the node was closed"));
                return;
            }
            T result;
            try {
                synchronized (this) {
                    result = work.run();
                }
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
                return;
            }
            f.complete(result);
        });
        return f;
    }

    private void giveBack(long[] ids) {
        for (int i = ids.length - 1; i >= 0; i--) {
            Delivered d = unsettled.remove(ids[i]);
            if (d != null) {
                queues.computeIfAbsent(d.destination, x -> new ArrayDeque<>()).addFirst(d.message);
            }
        }
    }

    /** Hands waiting messages to consumers with credit, on the transport thread (the caller's). */
    private void dispatch() {
        ConnectionListener l = listener;
        for (Map.Entry<Integer, Consumer> e : consumers.entrySet()) {
            Consumer c = e.getValue();
            Deque<byte[]> q = queues.get(c.destination);
            while (q != null && !q.isEmpty() && c.credit[0] > 0) {
                byte[] m = q.pollFirst();
                c.credit[0]--;
                long id = ++deliveryIds;
                unsettled.put(id, new Delivered(c.sessionId, c.destination, m));
                if (l != null) {
                    l.onDelivery(e.getKey(), id, 1, -1, m);
                }
            }
        }
    }
}
