package org.partita.broker.admin;

/**
 * The node's figures over JMX ({@code org.partita:type=Node,name=<nodeName>}), the same as the
 * admin commands give: every queue, and per partition its depth, in flight, owner, state, age of
 * the oldest message, delivery rate and whether it is hot.
 */
public interface NodeMXBean {
    String[] getQueueNames();

    /** One line per partition: {@code partition=0 depth=12 inFlight=3 owner=... state=ASSIGNED ... hot=false}. */
    String[] partitionTable(String queue);

    /** The number of the hottest partition of the queue, or -1 if none is hot. */
    int hotPartition(String queue);
}
