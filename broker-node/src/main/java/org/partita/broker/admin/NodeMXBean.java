package org.partita.broker.admin;

/**
 * The node's figures over JMX ({@code org.partita:type=Node,name=<nodeName>}), the same as the
 * admin commands give. A figure that is not measured (the age of the oldest message of an empty
 * partition) is left out of a line, never written as zero. The meters of the metrics endpoint are
 * on JMX too, under the {@code metrics} domain.
 */
public interface NodeMXBean {
    String[] getQueueNames();

    /**
     * One line per queue: {@code queue=orders mode=priority partitions=8 depth=12 inFlight=3 consumers=2
     * oldestAgeMillis=420 enqueued=... delivered=... acknowledged=... ratePerSecond=...}.
     */
    String[] queueTable();

    /** One line per partition: {@code partition=0 depth=12 inFlight=3 owner=... state=ASSIGNED ... hot=false}. */
    String[] partitionTable(String queue);

    /** The number of the hottest partition of the queue, or -1 if none is hot. */
    int hotPartition(String queue);

    /**
     * The cluster as this node sees it, one {@code name=value} line each: members and their state,
     * the Raft leader, the node hosting each partition of each clustered queue, forward backlogs.
     * Empty on a node that is not a member of a cluster.
     */
    String[] getClusterStatus();

    /**
     * One line per XA branch in doubt (prepared, or completed by hand and not yet forgotten):
     * {@code branch=<formatId:gtridHex:bqualHex> state=PREPARED sent=2 consumed=1 preparedAt=... restored=true}.
     */
    String[] inDoubtTransactions();

    /** Commits a prepared branch by hand (a heuristic decision its transaction manager is told of). */
    void commitTransaction(String xid);

    /** Rolls a prepared branch back by hand (a heuristic decision its transaction manager is told of). */
    void rollbackTransaction(String xid);
}
