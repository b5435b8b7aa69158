package org.partita.jms.transport;

/** What a {@link BrokerConnection} tells the JMS facade without being asked. */
public interface ConnectionListener {

    /**
     * A message for consumer {@code consumerId}, from {@code partition} of a partitioned queue (-1
     * otherwise). Called on a transport thread: do not block.
     */
    void onDelivery(int consumerId, long deliveryId, int deliveryCount, int partition, byte[] message);

    /** The partitions consumer {@code consumerId} owns changed. Called on a transport thread. */
    default void onPartitions(int consumerId, int[] owned) {
    }

    /**
     * A request sent without an answer (a non-persistent send, an unconfirmed acknowledgement) failed
     * on the node. The connection stays open. Called on a transport thread.
     */
    default void onRequestFailed(BrokerError cause) {
    }

    /** The connection is gone (node closed it, network lost, protocol error). Called once. */
    void onFailure(BrokerError cause);
}
