package org.partita.broker.network.connection;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.DestinationAddress;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.UnknownDestinationException;
import org.partita.broker.core.topic.TopicPattern;
import org.partita.broker.network.NodeContext;
import org.partita.protocol.DestinationName;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.ProtocolException;

/**
 * How one connection names destinations: resolving queue and topic names to the queues a message
 * goes to or a consumer reads, and the temporary destinations it owns (gone with it).
 */
final class ConnectionDestinations {
    private final Broker broker;
    private final NodeContext node;
    private final Set<String> temporary = ConcurrentHashMap.newKeySet();
    private volatile Access access = Access.UNCHECKED;

    ConnectionDestinations(Broker broker, NodeContext node) {
        this.broker = broker;
        this.node = node;
    }

    /** What the connection's user may do, once logged in. */
    void access(Access a) {
        this.access = a;
    }

    /** The queues a message sent to {@code dest} goes to: the queue (its AppIds), or a topic's subscriptions. */
    List<BrokerQueue> targets(DestinationName dest, MessageRef message) {
        return switch (dest.kind()) {
            case QUEUE -> broker.queueTargets(queue(dest), message);
            case TEMP_QUEUE -> List.of(queue(dest));
            case TOPIC -> {
                TopicPattern.checkNoOptions(dest.name());
                yield broker.subscriptions().routes(dest.name(), message);
            }
            case TEMP_TOPIC -> {
                if (!broker.subscriptions().temporaryTopicExists(dest.name())) {
                    throw new UnknownDestinationException(
                            "temporary topic " + dest.name() + " does not exist (its connection closed or deleted it)");
                }
                yield broker.subscriptions().routes(dest.name(), message);
            }
        };
    }

    /** The queue a name designates (created on first use if the node allows it). */
    BrokerQueue queue(DestinationName dest) {
        if (dest.kind() == DestinationName.Kind.QUEUE
                && DestinationAddress.parse(dest.name()).name().contains("#")) {
            throw new IllegalArgumentException("'" + dest.name() + "': queue names may not contain '#'; read an AppId"
                    + " of a fan-out queue as <queue>?appId=<appId>");
        }
        if (dest.kind() == DestinationName.Kind.TEMP_QUEUE) {
            BrokerQueue q = broker.existingQueue(dest.name());
            if (q == null) {
                throw new UnknownDestinationException(
                        "temporary queue " + dest.name() + " does not exist (its connection closed or deleted it)");
            }
            return q;
        }
        mayCreate(DestinationAddress.parse(dest.name()).name());
        return broker.queue(dest.name());
    }

    /** Bringing a queue into being on first use needs the createQueue permission. */
    private void mayCreate(String plainName) {
        if (broker.existingQueue(plainName) == null) {
            access.require(org.partita.broker.security.Operation.CREATE_QUEUE, "queue", plainName);
        }
    }

    /** The queue a consumer of {@code dest} reads (a fan-out queue's AppId queue, by the address's appId). */
    BrokerQueue consumerQueue(DestinationName dest, DestinationAddress address) {
        if (dest.kind() != DestinationName.Kind.QUEUE) {
            return queue(dest);
        }
        mayCreate(address.name());
        return broker.consumerQueue(address);
    }

    /**
     * Only the connection that made a temporary destination may consume from it (JMS 6.2.2); a
     * deleted one does not exist any more.
     */
    void checkConsumable(DestinationName dest) {
        if (!dest.kind().isTemporary() || temporary.contains(dest.name())) {
            return;
        }
        boolean exists = dest.kind() == DestinationName.Kind.TEMP_QUEUE
                ? broker.existingQueue(dest.name()) != null
                : broker.subscriptions().temporaryTopicExists(dest.name());
        if (exists) {
            throw new ProtocolException(
                    ErrorCode.ILLEGAL_STATE, "only the connection that created " + dest + " may consume from it");
        }
        throw new UnknownDestinationException(dest + " does not exist (deleted, or its connection closed)");
    }

    String createTemporaryQueue() {
        String name = node.nodeName() + "-temp-queue-" + node.nextTemporaryId();
        broker.createTemporaryQueue(name);
        temporary.add(name);
        return name;
    }

    String createTemporaryTopic() {
        String name = node.nodeName() + "-temp-topic-" + node.nextTemporaryId();
        broker.subscriptions().createTemporaryTopic(name);
        temporary.add(name);
        return name;
    }

    /** Deletes a temporary destination of this connection; false if it is not one. */
    boolean deleteTemporary(DestinationName d) {
        if (!temporary.remove(d.name())) {
            return false;
        }
        delete(d.name());
        return true;
    }

    /** The connection ended: its temporary destinations go with it. */
    void deleteAll() {
        for (String d : temporary) {
            delete(d);
        }
        temporary.clear();
    }

    private void delete(String name) {
        broker.deleteQueue(name);
        broker.subscriptions().deleteTemporaryTopic(name);
    }
}
