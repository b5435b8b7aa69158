package org.partita.broker.store.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RecentSendsTest {

    @Test
    void remembersAnIdWithinTheWindow() {
        RecentSends recent = new RecentSends(10, 1_000);
        recent.add("ID:a", 0);
        assertTrue(recent.contains("ID:a", 1_000));
        assertFalse(recent.contains("ID:b", 1_000));
    }

    @Test
    void forgetsAnIdOlderThanTheWindow() {
        RecentSends recent = new RecentSends(10, 1_000);
        recent.add("ID:a", 0);
        recent.add("ID:b", 600);
        assertFalse(recent.contains("ID:a", 1_001));
        assertTrue(recent.contains("ID:b", 1_001));
    }

    @Test
    void keepsTheNewestWhenFull() {
        RecentSends recent = new RecentSends(3, 1_000_000);
        for (int i = 0; i < 5; i++) {
            recent.add("ID:" + i, i);
        }
        assertEquals(3, recent.size());
        assertFalse(recent.contains("ID:1", 10));
        assertTrue(recent.contains("ID:2", 10));
        assertTrue(recent.contains("ID:4", 10));
    }
}
