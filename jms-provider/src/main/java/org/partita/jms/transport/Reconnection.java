package org.partita.jms.transport;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.partita.protocol.ErrorCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One failover of a {@link FailoverBrokerConnection}, on a thread of its own: tries the nodes in the
 * connection's order, round after round with a pause that doubles up to a second, until one accepts
 * and takes over what was open, or {@code failoverTimeout} is up (0: it tries for ever).
 */
final class Reconnection {
    private static final Logger LOG = LoggerFactory.getLogger(Reconnection.class);
    private static final long FIRST_PAUSE_MILLIS = 50;
    private static final long LONGEST_PAUSE_MILLIS = 1_000;
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final FailoverBrokerConnection owner;
    private final NodeAddress lost;
    private final BrokerError cause;
    private final long timeoutMillis;
    private final Thread thread;
    private volatile boolean stopped;

    Reconnection(FailoverBrokerConnection owner, NodeAddress lost, BrokerError cause, long timeoutMillis) {
        this.owner = owner;
        this.lost = lost;
        this.cause = cause;
        this.timeoutMillis = timeoutMillis;
        this.thread = new Thread(this::run, "partita-failover-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** The connection was closed: no more attempts. */
    void stop() {
        stopped = true;
        thread.interrupt();
    }

    private boolean over() {
        return stopped || owner.isClosed();
    }

    private void run() {
        long started = System.nanoTime();
        long deadline = timeoutMillis == 0 ? Long.MAX_VALUE : started + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Map<NodeAddress, String> refusals = new LinkedHashMap<>();
        long pause = FIRST_PAUSE_MILLIS;
        while (!over()) {
            for (NodeAddress node : owner.nodes().after(lost)) {
                if (over() || Replay.millisLeft(deadline) == 0) {
                    break;
                }
                try {
                    Replay.Outcome outcome = owner.attempt(node, deadline);
                    if (owner.switchTo(outcome)) {
                        owner.switched(outcome.link(), report(outcome, started));
                    }
                    return;
                } catch (BrokerError e) {
                    refusals.put(node, e.getMessage());
                    LOG.debug("failing over: node {} did not take the connection: {}", node, e.getMessage());
                } catch (RuntimeException e) {
                    // a bug must not leave the connection failing over for ever without a word
                    refusals.put(node, e.toString());
                    LOG.warn("failing over: trying node {} failed", node, e);
                }
            }
            long left = Replay.millisLeft(deadline);
            if (left == 0) {
                owner.gaveUp(gaveUp(refusals));
                return;
            }
            try {
                Thread.sleep(Math.min(pause, left));
            } catch (InterruptedException e) {
                return; // stopped
            }
            pause = Math.min(pause * 2, LONGEST_PAUSE_MILLIS);
        }
    }

    private String report(Replay.Outcome o, long started) {
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        StringBuilder s = new StringBuilder("failed over from node ")
                .append(lost)
                .append(" (")
                .append(cause.getMessage())
                .append(") to node ")
                .append(o.link().address)
                .append(" in ")
                .append(millis)
                .append(" ms: ")
                .append(o.sessions().size())
                .append(" session(s) and ")
                .append(o.consumers().size())
                .append(" consumer(s) opened again. Messages received from ")
                .append(lost)
                .append(" and not acknowledged are void (that node delivers them again when it returns);")
                .append(
                        " a transaction that only sent there is made again here, one that received there fails its next commit");
        if (!o.detached().isEmpty()) {
            s.append(". Consumers ")
                    .append(o.detached())
                    .append(" read temporary destinations of ")
                    .append(lost)
                    .append(", which no other node has: they receive nothing any more");
        }
        return s.toString();
    }

    private BrokerError gaveUp(Map<NodeAddress, String> refusals) {
        StringBuilder s = new StringBuilder("connection lost: node ")
                .append(lost)
                .append(" was lost (")
                .append(cause.getMessage())
                .append(") and no node of ")
                .append(owner.nodes())
                .append(" took the connection within failoverTimeout (")
                .append(timeoutMillis)
                .append(" ms)");
        refusals.forEach((node, why) -> s.append("; ").append(node).append(": ").append(why));
        return new BrokerError(ErrorCode.INTERNAL, s.toString());
    }
}
