package org.partita.broker.store.replica;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.AlreadyExistsException;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks every second for a replica of this node that follows its set and whose appends failed for
 * good ({@link FollowerAppends}), and restarts it: the set's group is removed from the node's Ratis
 * server, its folder kept, and added again, which starts it from its log and store on disk as a
 * node's restart would; it then takes its leader's appends again (or a copy of its store). A group
 * whose adding back fails is tried again at the next look. A leader's division is left alone: leading
 * does not go through the failed chain, and it is restarted once it follows.
 */
final class FollowerRestarts implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FollowerRestarts.class);

    private final RaftServer server;
    private final RaftPeerId self;
    private final String node;
    private final long timeoutMillis;
    private final Function<RaftGroupId, ReplicatedStore> stores;
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "partita-replica-watch");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong restarts = new AtomicLong();
    /** Groups removed from the server to be restarted and not added back yet. */
    private final Map<RaftGroupId, RaftGroup> restarting = new ConcurrentHashMap<>();

    FollowerRestarts(RaftServer server, ReplicaServerSettings settings, Function<RaftGroupId, ReplicatedStore> stores) {
        this.server = server;
        this.self = RaftPeerId.valueOf(settings.node());
        this.node = settings.node();
        this.timeoutMillis = settings.requestTimeout().toMillis();
        this.stores = stores;
        if (FollowerAppends.observable()) {
            watch.scheduleWithFixedDelay(this::look, 1, 1, TimeUnit.SECONDS);
        } else {
            LOG.warn("this Ratis version hides its followers' appends: a follower whose appends failed for good is"
                    + " not restarted by the node");
        }
    }

    /** How many times a replica of this node was restarted. */
    long count() {
        return restarts.get();
    }

    private void look() {
        try {
            for (RaftGroup group : List.copyOf(restarting.values())) {
                addAgain(group);
            }
            for (RaftGroupId group : server.getGroupIds()) {
                RaftServer.Division division = server.getDivision(group);
                if (!division.getInfo().isLeader() && FollowerAppends.failed(division)) {
                    restart(division);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("replica server of {}: looking for failed followers: {}", node, e.toString());
        }
    }

    private void restart(RaftServer.Division division) {
        RaftGroup group = division.getGroup();
        ReplicatedStore store = stores.apply(group.getGroupId());
        if (store == null) {
            return;
        }
        LOG.warn(
                "replica set {}: this node's replica refuses every append from its leader since one failed"
                        + " (Ratis keeps them chained); restarting it from its log and store",
                store.setName());
        // the division being removed keeps its machine; the one added next gets a new one (Ratis
        // does not open a closed machine again)
        store.renewMachine();
        try {
            RaftClientReply removed = server.groupManagementAsync(GroupManagementRequest.newRemove(
                            ClientId.randomId(), self, 0, group.getGroupId(), false, false))
                    .get(timeoutMillis, TimeUnit.MILLISECONDS);
            if (!removed.isSuccess()) {
                throw new IOException(removed.getException());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException | IOException e) {
            LOG.warn(
                    "replica set {}: removing this node's replica to restart it failed: {}",
                    store.setName(),
                    e.toString());
            return; // still failed: the next look tries again
        }
        restarting.put(group.getGroupId(), group);
        addAgain(group);
    }

    /** Adds a group removed to be restarted back to the server, from its folder. */
    private void addAgain(RaftGroup group) {
        ReplicatedStore store = stores.apply(group.getGroupId());
        try {
            RaftClientReply added = server.groupManagementAsync(
                            GroupManagementRequest.newAdd(ClientId.randomId(), self, 0, group, false))
                    .get(timeoutMillis, TimeUnit.MILLISECONDS);
            if (!added.isSuccess()) {
                throw new IOException(added.getException());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof AlreadyExistsException)) { // added meanwhile (the set joined again): as good
                LOG.warn(
                        "replica set {}: starting this node's replica again failed: {}",
                        store.setName(),
                        e.getCause().toString());
                return;
            }
        } catch (TimeoutException | IOException e) {
            LOG.warn("replica set {}: starting this node's replica again failed: {}", store.setName(), e.toString());
            return;
        }
        restarting.remove(group.getGroupId());
        restarts.incrementAndGet();
        store.restarted();
        LOG.info("replica set {}: this node's replica restarted", store.setName());
    }

    @Override
    public void close() {
        watch.shutdownNow();
    }
}
