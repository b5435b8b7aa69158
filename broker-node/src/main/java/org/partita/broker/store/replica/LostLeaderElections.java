package org.partita.broker.store.replica;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.client.impl.ClientProtoUtils;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionReplyProto;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionRequestProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the election of a set whose leader's process is gone at once, instead of after Ratis's
 * election timeout (1 to 2 s by default, twice when the lost leader was the preferred one, whose
 * pre-vote and vote each wait for it).
 *
 * <p>A node learns that another one is gone when its link to it closes: the kernel of a killed
 * process resets its connections. Then, for each set this node follows under that leader, it
 * dials the leader's replica server once: a refused connection means nothing listens there any
 * more (a paused or cut-off node does not refuse, and is left to the timeout). Of the set's
 * remaining voters, the one Ratis would prefer (highest priority, then name) asks its own Raft
 * division to stand now; the others do nothing, so the two followers of a set of three never split
 * their votes. Every other step is Ratis's: the division stands through the entry point Ratis's
 * leadership transfer uses ({@code startLeaderElection}, which a division takes only while it is a
 * follower and only naming the leader it follows), with the lost leader named as the one asking and
 * this node's own last entry as the leader's; the election, the other replica's vote (which checks
 * the candidate's log) and everything after are Ratis's own, so a standing that comes too early
 * costs a term, never a confirmed write. If the successor's log is behind, the vote is refused and
 * the set waits for the timeout as before.
 *
 * <p>What it takes as "gone" is a refused connection: a firewall that rejects (resets) connections
 * between nodes, instead of dropping them, makes a live leader look gone; it is then replaced at once
 * and may still deliver for the rest of its lease (docs/cluster.md, "Failover").
 */
final class LostLeaderElections implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LostLeaderElections.class);
    /** How long a dial to the lost leader may take: a refusal on a reachable host comes at once. */
    private static final int DIAL_MILLIS = 250;
    /** How long a connection the dial made is read: a process being torn down resets it at once. */
    private static final int LISTEN_MILLIS = 100;

    private final RaftServer server;
    private final RaftPeerId self;
    private final AtomicLong started = new AtomicLong();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "partita-lost-leader");
        t.setDaemon(true);
        return t;
    });

    LostLeaderElections(RaftServer server, RaftPeerId self) {
        this.server = server;
        this.self = self;
    }

    /** The link to {@code node} closed: in the background, stands for the sets it led whose server is gone. */
    void linkLost(String node) {
        try {
            worker.execute(() -> standWhereGone(RaftPeerId.valueOf(node)));
        } catch (RejectedExecutionException closing) {
            // the server is closing
        }
    }

    /** Elections this node started for a lost leader (tests and logs read it). */
    long started() {
        return started.get();
    }

    private void standWhereGone(RaftPeerId lost) {
        Boolean gone = null; // dialled once, for the first set it led
        for (RaftGroupId group : server.getGroupIds()) {
            try {
                RaftServer.Division division = server.getDivision(group);
                if (!division.getInfo().isFollower()
                        || !lost.equals(division.getInfo().getLeaderId())) {
                    continue;
                }
                RaftPeer leader = division.getRaftConf().getPeer(lost);
                if (leader == null) {
                    continue;
                }
                if (gone == null) {
                    gone = refuses(leader.getAddress());
                }
                if (!gone) {
                    return; // still listening: paused, cut off, or its link only: Ratis's timeout decides
                }
                if (self.equals(successor(division, lost))) {
                    stand(division, group, lost);
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("replica group {}: no early election after {} was lost: {}", group, lost, e.toString());
            }
        }
    }

    /** The voter Ratis would rather have lead, the lost one aside: highest priority, then name. */
    private static RaftPeerId successor(RaftServer.Division division, RaftPeerId lost) {
        Optional<RaftPeer> best = division.getRaftConf().getCurrentPeers().stream()
                .filter(p -> !p.getId().equals(lost))
                .min(Comparator.comparingInt(RaftPeer::getPriority)
                        .reversed()
                        .thenComparing(p -> p.getId().toString()));
        return best.map(RaftPeer::getId).orElse(null);
    }

    private void stand(RaftServer.Division division, RaftGroupId group, RaftPeerId lost) throws IOException {
        TermIndex last = division.getRaftLog().getLastEntryTermIndex();
        StartLeaderElectionRequestProto.Builder request = StartLeaderElectionRequestProto.newBuilder()
                .setServerRequest(
                        ClientProtoUtils.toRaftRpcRequestProtoBuilder(RaftGroupMemberId.valueOf(lost, group), self));
        if (last != null) {
            request.setLeaderLastEntry(last.toProto());
        } else {
            request.setLeaderLastEntry(TermIndex.valueOf(0, 0).toProto());
        }
        StartLeaderElectionReplyProto reply = server.startLeaderElection(request.build());
        if (reply.getServerReply().getSuccess()) {
            started.incrementAndGet();
            LOG.info(
                    "replica group {}: leader {} is gone (its replica server refuses connections); standing now",
                    group,
                    lost);
        }
    }

    /**
     * Whether nothing listens at {@code address} ({@code host:port}) any more: the connection is
     * refused, or taken by a listening socket that is reset or closed at once (the kernel may still
     * complete a handshake for a process that is being torn down, its sockets closed one by one). A
     * live replica server says nothing to a bare connection, so a read that times out means alive,
     * and so does a dial that times out (a host paused or cut off).
     */
    private static boolean refuses(String address) {
        int colon = address.lastIndexOf(':');
        InetSocketAddress at =
                new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
        try (Socket s = new Socket()) {
            s.connect(at, DIAL_MILLIS);
            s.setSoTimeout(LISTEN_MILLIS);
            return s.getInputStream().read() < 0;
        } catch (ConnectException refused) {
            return true;
        } catch (java.net.SocketTimeoutException alive) {
            return false;
        } catch (java.net.SocketException reset) {
            return true; // reset right after the handshake: the process holding the port is gone
        } catch (IOException other) {
            return false;
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
