package org.partita.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Whether a replica set of another node stored a message lately, for a message a producer sent
 * again through this node after its first node was lost before it answered. An unkeyed message has
 * no fixed partition: the lost node may have placed it in a set this node keeps no replica of (with
 * more nodes than replicas), whose members alone remember it; a node that keeps every set of the
 * queue never needs to ask. Each member answers the admin command {@value #COMMAND} from what the
 * sets it keeps applied lately ({@link ReplicatedPartitions#writtenLately}), after the outcome of a
 * write still on its way.
 */
final class SentElsewhere {
    static final String COMMAND = "replica.written";
    private static final String STORED = "stored=true";
    private static final String NOT_STORED = "stored=false";

    private final PeerQuestions peers;

    SentElsewhere(PeerQuestions peers) {
        this.peers = peers;
    }

    /**
     * Completes once a member says a set it keeps stored the message in {@code queue}; fails once
     * every member said none did or could not be asked (the message is then stored here: a member
     * not asked, down or paused, is one replica of its sets, whose other replicas remember the same).
     */
    CompletableFuture<Void> stored(String queue, String messageId) {
        CompletableFuture<Void> stored = new CompletableFuture<>();
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (String peer : peers.peers()) {
            CompletableFuture<String> answer = peers.ask(peer, c -> c.admin(COMMAND, argument(queue, messageId)));
            answer.thenAccept(a -> {
                if (STORED.equals(a.strip())) {
                    stored.complete(null);
                }
            });
            answers.add(answer);
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                .whenComplete((v, t) -> stored.completeExceptionally(new IllegalStateException(
                        "no other node's replica set stored message " + messageId + " in '" + queue + "' lately")));
        return stored;
    }

    /** The command's argument: the queue, a line break, the JMSMessageID. */
    static String argument(String queue, String messageId) {
        return queue + '\n' + messageId;
    }

    /**
     * This member's answer to {@code argument}: {@code stored=true} once the write that stored it
     * here is durable, else {@code stored=false} (none lately, or that write failed).
     */
    static CompletableFuture<String> answer(String argument, ReplicatedPartitions sets) {
        int nl = argument == null ? -1 : argument.indexOf('\n');
        if (nl < 0) {
            throw new IllegalArgumentException(COMMAND + " takes a queue and a message id on two lines");
        }
        CompletableFuture<Void> written = sets.writtenLately(argument.substring(0, nl), argument.substring(nl + 1));
        if (written == null) {
            return CompletableFuture.completedFuture(NOT_STORED);
        }
        return written.handle((v, failed) -> failed == null ? STORED : NOT_STORED);
    }
}
