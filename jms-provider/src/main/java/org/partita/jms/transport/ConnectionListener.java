package org.partita.jms.transport;

/** What a {@link BrokerConnection} tells the JMS facade without being asked. */
public interface ConnectionListener {

    /**
     * A message for consumer {@code consumerId}, from {@code partition} of a partitioned queue (-1
     * otherwise). Called on a transport thread: do not block.
     */
    void onDelivery(int consumerId, long deliveryId, int deliveryCount, int partition, byte[] message);

    /** The partitions consumer {@code consumerId} owns changed. Called on a transport thread. */
    default void onPartitions(int consumerId, int[] owned) {}

    /**
     * A request sent without an answer (a non-persistent send, an unconfirmed acknowledgement) failed
     * on the node. The connection stays open. Called on a transport thread.
     */
    default void onRequestFailed(BrokerError cause) {}

    /**
     * The connection lost its node and carries on with another ({@link FailoverBrokerConnection}): the
     * sessions and consumers are open there again. Deliveries numbered up to {@code voidUpTo} came
     * from the lost node and are void; those still waiting in consumer buffers are the facade's to
     * drop, as it alone holds them (and their room is then given to the new node). {@code report}
     * says what happened, for the ExceptionListener. Called once per switch, on a thread of the
     * transport; never for a connection to a single node.
     */
    default void onFailover(long voidUpTo, BrokerError report) {}

    /** The connection is gone (node closed it, network lost, protocol error). Called once. */
    void onFailure(BrokerError cause);
}
