package org.partita.broker.cluster;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntFunction;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import org.partita.broker.core.xa.XaError;
import org.partita.jms.transport.NettyBrokerConnection;
import org.partita.protocol.Frame;
import org.partita.protocol.WireXid;

/**
 * XA branches held by other nodes of the cluster. A prepared branch lives on the node that prepared
 * it; a client that failed over since asks another node to commit or roll it back, and a transaction
 * manager's recovery scan may reach any node. Answering those "no such branch" would be wrong: a
 * transaction manager takes that as "already completed" during recovery and forgets a branch whose
 * messages then never come. So a node that does not hold the branch asks the others over their
 * links, and when one it could not ask may hold it, says so with {@code XAER_RMFAIL}: the
 * transaction manager tries again later, until that node is back.
 */
final class XaRelay {
    private final PeerQuestions peers;

    /**
     * @param peers         the other members
     * @param linkTo        the open link to a member, or null while it is down
     * @param timeoutMillis how long a member may take to answer before it counts as not asked
     */
    XaRelay(List<String> peers, Function<String, NettyBrokerConnection> linkTo, long timeoutMillis) {
        this(new PeerQuestions(peers, linkTo, timeoutMillis));
    }

    XaRelay(PeerQuestions peers) {
        this.peers = peers;
    }

    /** The outcome of one member asked: its answer, or why it could not be asked. */
    record Asked(String node, Frame.XaResult answer, String failure) {}

    /**
     * Hands {@code request} (a commit, rollback or forget of {@code xid}) to the member holding the
     * branch. Completes with that member's XA code, or fails with an {@link XaError}: its refusal;
     * {@code XAER_NOTA} if every member answered it has no such branch; {@code XAER_RMFAIL} if none
     * of those asked has it and some could not be asked.
     */
    CompletableFuture<Integer> complete(WireXid xid, IntFunction<Frame> request) {
        return askEveryPeer(request).thenApply(asked -> {
            Frame.XaResult r = outcome(xid, asked);
            if (r.code() == XAResource.XA_OK || r.code() == XAResource.XA_RDONLY) {
                return r.code();
            }
            throw new XaError(r.code(), r.message());
        });
    }

    /**
     * Hands {@code request} for the other parts of a split branch to every other member: {@code XA_OK}
     * once each of {@code mustAnswer} (the members holding those parts) answered done or "no such
     * branch"; {@code XAER_RMFAIL} while one of them cannot be asked; a member's other refusal as is.
     */
    CompletableFuture<Integer> completeRest(WireXid xid, IntFunction<Frame> request, Set<String> mustAnswer) {
        return askEveryPeer(request).thenApply(asked -> {
            Frame.XaResult r = restOutcome(xid, asked, mustAnswer);
            if (r.code() == XAResource.XA_OK) {
                return r.code();
            }
            throw new XaError(r.code(), r.message());
        });
    }

    /** What the members' answers to a split branch's other parts add up to. */
    static Frame.XaResult restOutcome(WireXid xid, List<Asked> asked, Set<String> mustAnswer) {
        List<String> notAsked = new ArrayList<>();
        for (Asked a : asked) {
            if (!mustAnswer.contains(a.node())) {
                continue; // holds none of the other parts: its answer does not count
            }
            if (a.answer() == null) {
                notAsked.add(a.node() + " (" + a.failure() + ")");
                continue;
            }
            int code = a.answer().code();
            if (code != XAResource.XA_OK && code != XAResource.XA_RDONLY && code != XAException.XAER_NOTA) {
                return a.answer();
            }
        }
        if (!notAsked.isEmpty()) {
            return new Frame.XaResult(
                    0,
                    XAException.XAER_RMFAIL,
                    "branch " + xid + " is completed on this node, but other parts of it are held by "
                            + String.join(", ", notAsked) + ": try again once that node is back");
        }
        return new Frame.XaResult(0, XAResource.XA_OK, null);
    }

    /** The branches the other members hold, prepared or heuristically completed; those down add none. */
    CompletableFuture<List<WireXid>> recover() {
        List<CompletableFuture<List<WireXid>>> lists = new ArrayList<>();
        for (String peer : peers.peers()) {
            lists.add(peers.ask(peer, NettyBrokerConnection::xaRecover)
                    .exceptionally(t -> List.of())); // not asked: the scan comes again
        }
        return CompletableFuture.allOf(lists.toArray(CompletableFuture[]::new)).thenApply(v -> {
            Set<WireXid> all = new LinkedHashSet<>();
            lists.forEach(l -> all.addAll(l.join()));
            return List.copyOf(all);
        });
    }

    /** Hands {@code request} to every other member at once; each answer, or why it could not be asked. */
    private CompletableFuture<List<Asked>> askEveryPeer(IntFunction<Frame> request) {
        List<CompletableFuture<Asked>> asked = new ArrayList<>();
        for (String peer : peers.peers()) {
            asked.add(peers.ask(peer, c -> c.xa(request))
                    .handle((r, t) ->
                            t == null ? new Asked(peer, r, null) : new Asked(peer, null, PeerQuestions.reason(t))));
        }
        return CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new))
                .thenApply(v -> asked.stream().map(CompletableFuture::join).toList());
    }

    /** What the members' answers add up to (a result without request id: the caller answers its own). */
    static Frame.XaResult outcome(WireXid xid, List<Asked> asked) {
        List<String> notAsked = new ArrayList<>();
        for (Asked a : asked) {
            if (a.answer() != null && a.answer().code() != XAException.XAER_NOTA) {
                return a.answer(); // the member holding the branch
            }
            if (a.answer() == null) {
                notAsked.add(a.node() + " (" + a.failure() + ")");
            }
        }
        if (notAsked.isEmpty()) {
            return new Frame.XaResult(
                    0,
                    XAException.XAER_NOTA,
                    "no node of the cluster holds branch " + xid + " (never started, or already completed)");
        }
        return new Frame.XaResult(
                0,
                XAException.XAER_RMFAIL,
                "branch " + xid + " is not held by this node nor by those it could ask; it may be held by "
                        + String.join(", ", notAsked) + ": try again once that node is back");
    }
}
