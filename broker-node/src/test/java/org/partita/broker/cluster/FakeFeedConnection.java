package org.partita.broker.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.partita.jms.transport.BrokerConnection;

/**
 * The other node as a feed part reaches it, without the node: each request is written down as a
 * line ({@code s1} names session 1, {@code c2} consumer 2) and answered at once, except recovers,
 * which wait for the test to answer them with that node's fence.
 */
final class FakeFeedConnection implements FeedConnection {
    private final List<String> requests = new ArrayList<>();
    private final Deque<CompletableFuture<Long>> recovers = new ArrayDeque<>();
    /** What a drain is answered with: a node may refuse it (its consumer already closed). */
    CompletableFuture<Void> drainAnswer = CompletableFuture.completedFuture(null);

    /** The requests made since the last call, oldest first. */
    synchronized List<String> takeRequests() {
        List<String> taken = List.copyOf(requests);
        requests.clear();
        return taken;
    }

    /** That node processed the oldest recover not answered yet: deliveries up to {@code fence} are void. */
    void answerRecover(long fence) {
        oldestRecover().complete(fence);
    }

    void refuseRecover() {
        oldestRecover().completeExceptionally(new IllegalStateException("no such session"));
    }

    private synchronized CompletableFuture<Long> oldestRecover() {
        if (recovers.isEmpty()) {
            throw new AssertionError("no recover is waiting for its answer");
        }
        return recovers.removeFirst();
    }

    private synchronized void note(String request) {
        requests.add(request);
    }

    private CompletableFuture<Void> done(String request) {
        note(request);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> openSession(int sessionId, boolean transacted) {
        return done("openSession s" + sessionId + (transacted ? " transacted" : ""));
    }

    @Override
    public CompletableFuture<Void> openConsumer(BrokerConnection.ConsumerSpec spec) {
        return done("openConsumer s" + spec.sessionId() + " c" + spec.consumerId() + " " + spec.destination()
                + " selector=" + spec.selector() + " credit=" + spec.credit()
                + (spec.windowBytes() > 0 ? " window=" + spec.windowBytes() : ""));
    }

    @Override
    public void credit(int consumerId, int messages) {
        note("credit c" + consumerId + " " + messages);
    }

    @Override
    public synchronized CompletableFuture<Void> drain(int consumerId) {
        note("drain c" + consumerId);
        return drainAnswer;
    }

    @Override
    public CompletableFuture<Void> updateConsumer(
            int consumerId, Integer priority, Integer capacityMessages, Long capacityBytes) {
        return done("update c" + consumerId + " priority=" + priority + " messages=" + capacityMessages + " bytes="
                + capacityBytes);
    }

    @Override
    public CompletableFuture<Void> spare(int consumerId, boolean spare) {
        return done("spare c" + consumerId + " " + spare);
    }

    @Override
    public CompletableFuture<Void> ack(int sessionId, long[] deliveryIds, boolean confirm) {
        return done("ack s" + sessionId + " " + Arrays.toString(deliveryIds) + (confirm ? " confirmed" : ""));
    }

    @Override
    public CompletableFuture<Void> release(int sessionId, long[] redeliver, long[] unseen) {
        return done("release s" + sessionId + " redeliver=" + Arrays.toString(redeliver) + " unseen="
                + Arrays.toString(unseen));
    }

    @Override
    public synchronized CompletableFuture<Long> recover(int sessionId, long[] seen) {
        note("recover s" + sessionId + " seen=" + Arrays.toString(seen));
        CompletableFuture<Long> answer = new CompletableFuture<>();
        recovers.addLast(answer);
        return answer;
    }

    @Override
    public CompletableFuture<Void> closeConsumer(int consumerId) {
        return done("closeConsumer c" + consumerId);
    }

    @Override
    public CompletableFuture<Void> closeSession(int sessionId) {
        return done("closeSession s" + sessionId);
    }
}
