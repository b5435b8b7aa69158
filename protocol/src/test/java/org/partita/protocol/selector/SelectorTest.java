package org.partita.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The public API of {@link Selector}. */
class SelectorTest {

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "\t\n  \r"})
    void nullOrBlankMatchesEverything(String text) throws SelectorException {
        Selector selector = Selector.parse(text);
        assertSame(Selector.matchAll(), selector);
        assertTrue(selector.matchesAll());
        assertEquals("", selector.text());
        assertTrue(selector.matches(id -> null));
        assertTrue(selector.matches(id -> {
            throw new AssertionError("match-all selector must not read identifiers");
        }));
    }

    @Test
    void textIsKeptAsGiven() throws SelectorException {
        String text = "  color = 'red'  AND weight > 2 ";
        Selector selector = Selector.parse(text);
        assertEquals(text, selector.text());
        assertFalse(selector.matchesAll());
        assertTrue(selector.toString().contains(text));
    }

    @Test
    void matchesOnlyWhenTrue() throws SelectorException {
        Selector selector = Selector.parse("weight > 2");
        assertTrue(selector.matches(Map.of("weight", 3)::get));
        assertFalse(selector.matches(Map.of("weight", 1)::get));
        assertFalse(selector.matches(Map.of()::get), "UNKNOWN does not select");
        assertFalse(Selector.parse("NOT (weight > 2)").matches(Map.of()::get), "NOT UNKNOWN does not select");
        assertNull(selector.evaluate(Map.of()::get));
    }

    @Test
    void parsedOnceEvaluatedManyTimes() throws SelectorException {
        Selector selector = Selector.parse("name LIKE 'order-%' AND qty BETWEEN 1 AND 10");
        for (int i = 0; i < 20; i++) {
            boolean expected = i >= 1 && i <= 10;
            assertEquals(expected, selector.matches(Map.of("name", "order-" + i, "qty", i)::get), "qty " + i);
        }
    }

    @Test
    void andStopsAtFirstFalseAndOrAtFirstTrue() throws SelectorException {
        AtomicInteger reads = new AtomicInteger();
        SelectorContext ctx = id -> {
            reads.incrementAndGet();
            return id.equals("yes");
        };
        assertFalse(Selector.parse("no AND other").matches(ctx));
        assertEquals(1, reads.getAndSet(0));
        assertTrue(Selector.parse("yes OR other").matches(ctx));
        assertEquals(1, reads.getAndSet(0));
    }

    @Test
    void identifiersAreReadWithTheirExactCase() throws SelectorException {
        List<String> asked = new ArrayList<>();
        Selector.parse("Color = 'red' or COLOR = 'red' or color IS NULL").matches(id -> {
            asked.add(id);
            return null;
        });
        assertEquals(List.of("Color", "COLOR", "color"), asked);
    }

    @Test
    void longOrChainsDoNotRecurse() throws SelectorException {
        StringBuilder text = new StringBuilder("id = 0");
        for (int i = 1; i < 5000; i++) {
            text.append(" OR id = ").append(i);
        }
        Selector selector = Selector.parse(text.toString());
        assertTrue(selector.matches(Map.of("id", 4999)::get));
        assertFalse(selector.matches(Map.of("id", 5000)::get));
    }

    @Test
    void sharedAcrossThreads() throws Exception {
        Selector selector = Selector.parse("k LIKE 'a%b_c' AND n IN ('x', 'y') AND v * 2 >= 10");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                tasks.add(() -> {
                    int hits = 0;
                    for (int i = 0; i < 10_000; i++) {
                        Map<String, Object> props = Map.of("k", i % 2 == 0 ? "a--bxc" : "a--bc", "n", "y", "v", 5);
                        if (selector.matches(props::get)) {
                            hits++;
                        }
                    }
                    return hits;
                });
            }
            for (Future<Integer> result : pool.invokeAll(tasks)) {
                assertEquals(5_000, result.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void exceptionIsChecked() {
        try {
            Selector.parse("a = ");
            fail("expected a SelectorException");
        } catch (SelectorException e) {
            assertEquals(4, e.position());
            assertFalse(RuntimeException.class.isAssignableFrom(SelectorException.class));
        }
    }
}
