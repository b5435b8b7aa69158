package org.partita.broker.store.replica;

import java.util.Map;

/**
 * A replica set as this node sees it, for the metrics and the admin view.
 *
 * @param set           the set's name ({@code node2+node3+node1})
 * @param leading       whether this node leads the set
 * @param leader        the leader as this node knows it, or null during an election
 * @param leaderChanges how often this node saw the set's leadership change since it started
 * @param lagEntries    on the leader, how many committed log entries each follower has yet to hold; empty elsewhere
 * @param restarts      how often this node restarted its replica of the set because its appends failed for good
 */
public record ReplicaSetFigures(
        String set, boolean leading, String leader, long leaderChanges, Map<String, Long> lagEntries, long restarts) {}
