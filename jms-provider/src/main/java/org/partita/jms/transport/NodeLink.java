package org.partita.jms.transport;

import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * One node's transport inside a {@link FailoverBrokerConnection}, and the events it reports, passed
 * on to the facade for as long as it is the node in use (or being set up as the next one): delivery
 * ids made unique across nodes, credit used up counted, partitions noted, its loss reported.
 */
final class NodeLink implements ConnectionListener {
    final NodeAddress address;
    /** The link's number: transactions remember on which link they had work. */
    final long epoch;
    /** Added to the node's delivery ids (see {@link DeliveryIds}). */
    final long base;

    volatile BrokerConnection node;
    /** False once lost, abandoned or closed: its events are no longer the facade's. */
    volatile boolean active = true;

    private final ReplayLog log;
    private final DeliveryIds ids;
    private final Supplier<ConnectionListener> facade;
    private final BiConsumer<NodeLink, BrokerError> lost;

    NodeLink(
            NodeAddress address,
            long epoch,
            long base,
            ReplayLog log,
            DeliveryIds ids,
            Supplier<ConnectionListener> facade,
            BiConsumer<NodeLink, BrokerError> lost) {
        this.address = address;
        this.epoch = epoch;
        this.base = base;
        this.log = log;
        this.ids = ids;
        this.facade = facade;
        this.lost = lost;
    }

    /** The node can no longer answer: what was on its way to it is lost with it. */
    boolean gone() {
        return !active || !node.isOpen();
    }

    @Override
    public void onDelivery(int consumerId, long deliveryId, int deliveryCount, int partition, byte[] message) {
        ConnectionListener l = facade.get();
        if (!active || l == null) {
            return;
        }
        log.delivered(consumerId);
        l.onDelivery(consumerId, ids.seen(base, deliveryId), deliveryCount, partition, message);
    }

    @Override
    public void onPartitions(int consumerId, int[] owned) {
        ConnectionListener l = facade.get();
        if (!active || l == null) {
            return;
        }
        log.partitionsTold(consumerId, owned.length > 0);
        l.onPartitions(consumerId, owned);
    }

    @Override
    public void onRequestFailed(BrokerError cause) {
        ConnectionListener l = facade.get();
        if (active && l != null) {
            l.onRequestFailed(cause);
        }
    }

    @Override
    public void onFailure(BrokerError cause) {
        lost.accept(this, cause);
    }
}
