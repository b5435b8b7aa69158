package org.partita.broker.admin;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.DeadLetterStamp;
import org.partita.broker.core.queue.DestinationAddress;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.broker.core.queue.UnknownDestinationException;
import org.partita.protocol.DestinationName;
import org.partita.protocol.ProtocolException;

/**
 * {@code message.move from?to=QUEUE&messageIds=ID,ID}: moves waiting messages of a queue (a
 * dead-letter queue, usually) to another queue. Without {@code to}, each message goes back to the
 * queue it was dead-lettered from ({@link DeadLetterStamp#ORIGINAL_DESTINATION}), or, for a message
 * without that property (moved by hand, or dead-lettered by an older node), to the queue it was sent
 * to, read from its JMSDestination; messages that name no queue that can take them (a topic, a
 * fan-out queue, a deleted queue) stay where they are. Without {@code messageIds}, every waiting
 * message is moved.
 */
final class MessageMoves {
    record Result(int moved, int left) {}

    private final Broker broker;

    MessageMoves(Broker broker) {
        this.broker = broker;
    }

    CompletableFuture<Result> move(String argument) {
        int q = argument.indexOf('?');
        String from = q < 0 ? argument : argument.substring(0, q);
        String to = null;
        Set<String> ids = Set.of();
        if (q >= 0) {
            for (String pair : argument.substring(q + 1).split("&")) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : pair.substring(eq + 1);
                switch (key) {
                    case "to" -> to = decode(value);
                    case "messageIds" ->
                        ids = Arrays.stream(value.split(","))
                                .filter(s -> !s.isEmpty())
                                .map(MessageMoves::decode)
                                .collect(Collectors.toUnmodifiableSet());
                    default ->
                        throw new IllegalArgumentException(
                                "unknown option '" + key + "' of message.move; known: to, messageIds");
                }
            }
        }
        BrokerQueue source = broker.existingQueue(from);
        if (source == null) {
            throw new UnknownDestinationException("queue '" + from + "' does not exist");
        }
        if (to != null) {
            checkTarget(to);
        }
        String fixed = to;
        Set<String> wanted = ids;
        java.util.concurrent.atomic.AtomicInteger candidates = new java.util.concurrent.atomic.AtomicInteger();
        return source.moveWaiting(m -> {
                    if (!wanted.isEmpty() && !wanted.contains(m.wire().messageId())) {
                        return null;
                    }
                    candidates.incrementAndGet();
                    return fixed != null ? fixed : origin(m);
                })
                .thenApply(moved -> new Result(moved, candidates.get() - moved));
    }

    /** A queue can take moved messages if it exists and is not a fan-out queue (whose AppId queues hold them). */
    private void checkTarget(String name) {
        BrokerQueue target = broker.existingQueue(name);
        if (target == null) {
            throw new UnknownDestinationException("queue '" + name + "' does not exist");
        }
        if (QueueOptions.FANOUT.equals(target.options().mode())) {
            throw new IllegalArgumentException("'" + name + "' is a fan-out queue; move to one of its AppId queues, "
                    + target.options().appIds().stream()
                            .map(a -> name + "#" + a)
                            .toList());
        }
    }

    /** The queue a message was dead-lettered from or else sent to, if it can take it back; null otherwise. */
    private String origin(MessageRef m) {
        if (m.wire().property(DeadLetterStamp.ORIGINAL_DESTINATION) instanceof String from) {
            // an AppId queue (orders#billing) or a durable subscription's queue takes its own dead letters back
            return movableTo(from);
        }
        DestinationName d;
        try {
            d = DestinationName.parse(m.wire().destination());
        } catch (ProtocolException e) {
            return null;
        }
        if (d.kind() != DestinationName.Kind.QUEUE) {
            return null;
        }
        return movableTo(DestinationAddress.parse(d.name()).name());
    }

    private String movableTo(String name) {
        BrokerQueue q = broker.existingQueue(name);
        return q == null || QueueOptions.FANOUT.equals(q.options().mode()) ? null : name;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
