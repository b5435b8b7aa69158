package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.ProtocolException;

/** How the answers of the other members decide whether an unkeyed message sent again was stored before. */
class SentElsewhereTest {
    private static final Set<String> SETS = Set.of("a+b+c", "b+c+d");
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    /** The answers each member gives, in turn; the last one again once they run out. */
    private final Map<String, List<CompletableFuture<String>>> answers = new ConcurrentHashMap<>();

    private final Map<String, Integer> asked = new ConcurrentHashMap<>();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private SentElsewhere asking(long boundMillis, String... peers) {
        return new SentElsewhere(
                List.of(peers),
                (peer, argument) -> {
                    assertEquals("orders\nID:m", argument);
                    int n = asked.merge(peer, 1, Integer::sum) - 1;
                    List<CompletableFuture<String>> given = answers.get(peer);
                    return given.get(Math.min(n, given.size() - 1));
                },
                boundMillis,
                timer);
    }

    private static CompletableFuture<String> now(String body) {
        return CompletableFuture.completedFuture(body);
    }

    @Test
    void aStoredAnswerCountsEvenWhenItComesLast() throws Exception {
        CompletableFuture<String> late = new CompletableFuture<>();
        answers.put("b", List.of(now("stored=false\nabsentFrom=")));
        answers.put("c", List.of(late));
        CompletableFuture<Boolean> stored = asking(5_000, "b", "c").stored("orders", "ID:m", SETS);
        assertFalse(stored.isDone());
        late.complete("stored=true");
        assertTrue(stored.get(5, TimeUnit.SECONDS), "the last member to answer had it");
    }

    @Test
    void notStoredOnceTheServingLeaderOfEachSetSaysSo() throws Exception {
        answers.put("b", List.of(now("stored=false\nabsentFrom=a+b+c")));
        answers.put("c", List.of(new CompletableFuture<>())); // paused: never answers
        answers.put("d", List.of(now("stored=false\nabsentFrom=b+c+d")));
        CompletableFuture<Boolean> stored = asking(5_000, "b", "c", "d").stored("orders", "ID:m", SETS);
        assertFalse(stored.get(5, TimeUnit.SECONDS), "both sets vouched for, without waiting for the paused member");
    }

    @Test
    void aSetBetweenLeadersIsAskedAgainUntilItHasOne() throws Exception {
        answers.put("b", List.of(now("stored=false\nabsentFrom=a+b+c")));
        answers.put(
                "d",
                List.of(
                        now("stored=false\nabsentFrom="), // its set is between leaders: a follower has not applied
                        now("stored=true"))); // once it leads, it has applied the entry
        CompletableFuture<Boolean> stored = asking(5_000, "b", "d").stored("orders", "ID:m", SETS);
        assertTrue(stored.get(5, TimeUnit.SECONDS));
        assertEquals(2, asked.get("d"));
    }

    @Test
    void aSetNoServingLeaderVouchesForWithinTheBoundLeavesTheSendInDoubt() {
        answers.put("b", List.of(now("stored=false\nabsentFrom=a+b+c")));
        answers.put("d", List.of(CompletableFuture.failedFuture(new IllegalStateException("its link is down"))));
        CompletableFuture<Boolean> stored = asking(600, "b", "d").stored("orders", "ID:m", SETS);
        ExecutionException e = assertThrows(ExecutionException.class, () -> stored.get(10, TimeUnit.SECONDS));
        ProtocolException inDoubt = assertInstanceOf(ProtocolException.class, e.getCause());
        assertEquals(ErrorCode.IN_DOUBT, inDoubt.code());
        assertTrue(inDoubt.getMessage().contains("[b+c+d]"), inDoubt.getMessage());
        assertTrue(asked.get("b") >= 2, "asked again while in doubt");
    }

    @Test
    void answersReadBackAsWritten() {
        SentElsewhere.Answer a = new SentElsewhere.Answer(false, Set.of("a+b+c"));
        assertEquals(a, SentElsewhere.Answer.parse(a.format()));
        assertTrue(SentElsewhere.Answer.parse("stored=true").stored());
        assertEquals(
                Set.of(),
                SentElsewhere.Answer.parse("stored=false\nabsentFrom=").absentFrom());
    }
}
