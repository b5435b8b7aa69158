package org.partita.broker.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.partita.jms.transport.NettyBrokerConnection;

/**
 * Asks the other members of the cluster something over their links, each within a bound: what
 * {@link XaRelay} and {@link SentElsewhere} share. A member whose link is down, or that does not
 * answer in time, fails its question; what that means is the asker's to decide.
 */
final class PeerQuestions {
    private final Function<String, NettyBrokerConnection> linkTo;
    private final List<String> peers;
    private final long timeoutMillis;

    /**
     * @param peers         the other members
     * @param linkTo        the open link to a member, or null while it is down
     * @param timeoutMillis how long a member may take to answer before it counts as not asked
     */
    PeerQuestions(List<String> peers, Function<String, NettyBrokerConnection> linkTo, long timeoutMillis) {
        this.peers = List.copyOf(peers);
        this.linkTo = linkTo;
        this.timeoutMillis = timeoutMillis;
    }

    List<String> peers() {
        return peers;
    }

    <T> CompletableFuture<T> ask(String peer, Function<NettyBrokerConnection, CompletableFuture<T>> call) {
        NettyBrokerConnection c = linkTo.apply(peer);
        if (c == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("its link is down"));
        }
        try {
            return call.apply(c).orTimeout(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Why a member could not be asked, in a few words. */
    static String reason(Throwable t) {
        Throwable c = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        return c instanceof java.util.concurrent.TimeoutException
                ? "no answer in time"
                : String.valueOf(c.getMessage());
    }
}
