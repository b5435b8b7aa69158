package org.partita.broker.network.connection;

import static org.partita.broker.network.connection.ConnectionLog.LOG;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;

/**
 * RECOVER (docs/protocol.md, "RECOVER / RECOVERED"): takes back every unsettled delivery of a
 * session, here and on the other nodes it consumes from, and answers with the fence, the highest
 * delivery id issued so far, behind which the client drops whatever still arrives.
 */
final class SessionRecovery {
    private final ConnectionState state;
    private final Replies replies;

    SessionRecovery(ConnectionState state, Replies replies) {
        this.state = state;
        this.replies = replies;
    }

    void recover(Frame.Recover f) {
        ServerSession session = state.session(f.sessionId());
        Set<Long> seen = new HashSet<>();
        for (long id : f.seen()) {
            seen.add(id);
        }
        // Other nodes' deliveries still on the wire are held before the fence is taken; each feed is then
        // recovered as a whole on its nodes, which fence it as this node fences the session.
        Set<RemoteFeed> feeds = new LinkedHashSet<>();
        List<ServerConsumer> consumers = new ArrayList<>(session.consumers().values());
        for (ServerConsumer c : consumers) {
            if (c.feed() != null) {
                c.feed().holdDeliveries();
                feeds.add(c.feed());
            }
        }
        // This node's queues stop delivering to the session first, and the fence waits until each has:
        // a dispatch pass still running when it is taken could add a key's later messages after it,
        // and those would reach the application ahead of the earlier ones handed back.
        CompletableFuture.allOf(consumers.stream().map(ServerConsumer::hold).toArray(CompletableFuture[]::new))
                .whenComplete((v, t) -> state.onLoop(() -> {
                    try {
                        recoverHeld(f, session, seen, feeds);
                    } catch (RuntimeException e) {
                        // no longer inside the frame's handling: answered here, or the client would wait
                        LOG.warn("recover of session {} failed", f.sessionId(), e);
                        replies.error(f, ErrorCode.INTERNAL, "recover failed: " + e);
                    } finally {
                        consumers.forEach(ServerConsumer::resume); // after the releases, on each queue
                    }
                }));
    }

    /** The rest of a recover, once no queue of this node delivers to the session any more. */
    private void recoverHeld(Frame.Recover f, ServerSession session, Set<Long> seen, Set<RemoteFeed> feeds) {
        List<Delivery> all = new ArrayList<>();
        long fence = session.voidAll(all);
        all.sort(Comparator.comparingLong(Delivery::id));
        List<Delivery> local = new ArrayList<>();
        Map<RemoteFeed, List<RemoteFeed.Handle>> seenRemote = new HashMap<>();
        for (Delivery d : all) {
            if (d instanceof RemoteDelivery r && !feeds.contains(r.handle().feed())) {
                d.release(seen.contains(d.id())); // its consumer closed: its feed is not recovered as a whole
            } else if (d instanceof RemoteDelivery r) {
                if (seen.contains(d.id())) {
                    seenRemote
                            .computeIfAbsent(r.handle().feed(), k -> new ArrayList<>())
                            .add(r.handle());
                }
            } else {
                local.add(d);
            }
        }
        // what a transaction acknowledged from other nodes is given back now, as seen, with its feed
        session.txConsumed().removeIf(d -> {
            if (d instanceof RemoteDelivery r && feeds.contains(r.handle().feed())) {
                seenRemote
                        .computeIfAbsent(r.handle().feed(), k -> new ArrayList<>())
                        .add(r.handle());
                return true;
            }
            return false;
        });
        Delivery.releaseAll(local, d -> seen.contains(d.id()));
        for (RemoteFeed feed : feeds) {
            feed.recover(seenRemote.getOrDefault(feed, List.of()));
        }
        session.closeIdleFeeds();
        replies.answer(new Frame.Recovered(f.requestId(), fence));
    }
}
