package org.partita.broker.cluster;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.ProtocolException;

/**
 * Whether a replica set of the queue stored a message lately, for an unkeyed message a producer sent
 * again through this node after its first node was lost before it answered. An unkeyed message has no
 * fixed partition: the lost node placed it in a set it served, and only that set's serving leader,
 * which applied every entry the set committed before it served, can say it is not there; a follower
 * may hold the entry in its log without having applied it yet (it learns the commit from the next
 * append, which a lost leader never sends). So each member answers the admin command
 * {@value #COMMAND} with {@code stored=true} when a set it keeps stored the message (after the outcome
 * of a write still on its way), else with the sets it serves now, read back, in which it is absent;
 * the asker stores the message only once every set of the queue that it does not serve itself is
 * vouched for so, asks again while one is between leaders, and after the bound refuses it as in doubt
 * rather than risk a second copy.
 */
final class SentElsewhere {
    static final String COMMAND = "replica.written";
    private static final String STORED = "stored=true";
    private static final String ABSENT_FROM = "absentFrom=";
    private static final long ROUND_PAUSE_MILLIS = 250;

    /** Asks one member the command with an argument; fails when it cannot be asked or does not answer in time. */
    interface Asker {
        CompletableFuture<String> ask(String peer, String argument);
    }

    private final List<String> peers;
    private final Asker asker;
    private final long boundMillis;
    private final java.util.concurrent.ScheduledExecutorService timer;

    /**
     * Asks the other members over their links ({@link PeerQuestions}), and this node itself through
     * {@code here}: it may come to serve a set between two rounds (elected in place of the lost node),
     * and then vouches for it as any serving leader does.
     */
    SentElsewhere(
            PeerQuestions peers,
            String self,
            java.util.function.Function<String, CompletableFuture<String>> here,
            long boundMillis,
            java.util.concurrent.ScheduledExecutorService timer) {
        this(
                withSelf(peers.peers(), self),
                (member, argument) ->
                        member.equals(self) ? here.apply(argument) : peers.ask(member, c -> c.admin(COMMAND, argument)),
                boundMillis,
                timer);
    }

    private static List<String> withSelf(List<String> peers, String self) {
        List<String> members = new java.util.ArrayList<>(peers);
        members.add(self);
        return members;
    }

    /**
     * @param boundMillis how long the asker goes on asking while a set has no serving leader: an
     *                    election and the new leader's read-back
     */
    SentElsewhere(
            List<String> peers, Asker asker, long boundMillis, java.util.concurrent.ScheduledExecutorService timer) {
        this.peers = List.copyOf(peers);
        this.asker = asker;
        this.boundMillis = boundMillis;
        this.timer = timer;
    }

    /**
     * Completes with true once a member says a set it keeps stored the message in {@code queue}, with
     * false once the serving leader of each of {@code sets} said it is absent there; fails with
     * {@link ErrorCode#IN_DOUBT} when neither is known within the bound.
     */
    CompletableFuture<Boolean> stored(String queue, String messageId, Set<String> sets) {
        CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        round(
                queue,
                messageId,
                Set.copyOf(sets),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(boundMillis),
                outcome);
        return outcome;
    }

    private void round(
            String queue, String messageId, Set<String> sets, long deadline, CompletableFuture<Boolean> outcome) {
        Set<String> vouched = ConcurrentHashMap.newKeySet();
        List<String> asked = peers;
        AtomicInteger left = new AtomicInteger(asked.size());
        for (String peer : asked) {
            asker.ask(peer, argument(queue, messageId)).whenComplete((answer, failed) -> {
                // each answer is weighed as it comes: a paused member does not hold up the others'
                if (failed == null) {
                    Answer a = Answer.parse(answer);
                    if (a.stored()) {
                        outcome.complete(true);
                    }
                    vouched.addAll(a.absentFrom());
                    if (vouched.containsAll(sets)) {
                        outcome.complete(false);
                    }
                }
                if (left.decrementAndGet() == 0 && !outcome.isDone()) {
                    if (System.nanoTime() - deadline >= 0) {
                        outcome.completeExceptionally(inDoubt(queue, messageId, sets, vouched));
                    } else {
                        timer.schedule(
                                () -> round(queue, messageId, sets, deadline, outcome),
                                ROUND_PAUSE_MILLIS,
                                TimeUnit.MILLISECONDS);
                    }
                }
            });
        }
        if (asked.isEmpty()) {
            outcome.completeExceptionally(inDoubt(queue, messageId, sets, vouched));
        }
    }

    private ProtocolException inDoubt(String queue, String messageId, Set<String> sets, Set<String> vouched) {
        Set<String> unknown = new LinkedHashSet<>(sets);
        unknown.removeAll(vouched);
        return new ProtocolException(
                ErrorCode.IN_DOUBT,
                "the message " + messageId + " was sent again because its node was lost before it answered, and"
                        + " whether replica set(s) " + unknown + " of '" + queue + "' stored it could not be told"
                        + " within " + boundMillis + " ms (no serving leader answered); nothing was stored here");
    }

    /** The command's argument: the queue, a line break, the JMSMessageID. */
    static String argument(String queue, String messageId) {
        return queue + '\n' + messageId;
    }

    /** A member's answer: whether a set it keeps stored the message, and the sets it serves in which it is absent. */
    record Answer(boolean stored, Set<String> absentFrom) {
        static Answer parse(String body) {
            boolean stored = false;
            Set<String> absent = Set.of();
            for (String line : body.strip().split("\n")) {
                if (line.equals(STORED)) {
                    stored = true;
                } else if (line.startsWith(ABSENT_FROM) && line.length() > ABSENT_FROM.length()) {
                    absent = Set.copyOf(
                            Arrays.asList(line.substring(ABSENT_FROM.length()).split(",")));
                }
            }
            return new Answer(stored, absent);
        }

        String format() {
            return stored ? STORED : "stored=false\n" + ABSENT_FROM + String.join(",", absentFrom);
        }
    }

    /**
     * This member's answer to {@code argument}: {@code stored=true} once the write that stored it in a
     * set kept here is durable; else {@code stored=false} and the sets this node serves (they hold
     * every entry their sets committed), in which it is therefore absent.
     */
    static CompletableFuture<String> answer(String argument, ReplicatedPartitions sets) {
        int nl = argument == null ? -1 : argument.indexOf('\n');
        if (nl < 0) {
            throw new IllegalArgumentException(COMMAND + " takes a queue and a message id on two lines");
        }
        CompletableFuture<Void> written = sets.writtenLately(argument.substring(0, nl), argument.substring(nl + 1));
        if (written == null) {
            return CompletableFuture.completedFuture(new Answer(false, sets.servedNow()).format());
        }
        // a write that failed stored nothing the set confirmed; the sets served here vouch as above
        return written.handle(
                (v, failed) -> new Answer(failed == null, failed == null ? Set.of() : sets.servedNow()).format());
    }
}
