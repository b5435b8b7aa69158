package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedMemoTest {
    @Test
    void computesEachInputOnce() {
        BoundedMemo<String, Integer> memo = new BoundedMemo<>(8);
        AtomicInteger calls = new AtomicInteger();
        for (int i = 0; i < 5; i++) {
            assertEquals(19, memo.get("orders?partitions=8", k -> {
                calls.incrementAndGet();
                return k.length();
            }));
        }
        assertEquals(1, calls.get());
    }

    @Test
    void aFailureIsNotKeptSoTheInputFailsEveryTime() {
        BoundedMemo<String, Integer> memo = new BoundedMemo<>(8);
        AtomicInteger calls = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> memo.get("bad", k -> {
                        calls.incrementAndGet();
                        throw new IllegalArgumentException("bad name");
                    }));
            assertEquals("bad name", e.getMessage());
        }
        assertEquals(3, calls.get());
    }

    @Test
    void pastItsBoundItStartsAfreshAndStillAnswersRight() {
        BoundedMemo<Integer, Integer> memo = new BoundedMemo<>(4);
        AtomicInteger calls = new AtomicInteger();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 10; i++) {
                assertEquals(i * i, memo.get(i, k -> {
                    calls.incrementAndGet();
                    return k * k;
                }));
            }
        }
        // ten inputs through a memo of four cannot all be kept: most are computed again
        assertTrue(calls.get() > 10, "computed " + calls.get() + " times");
    }
}
