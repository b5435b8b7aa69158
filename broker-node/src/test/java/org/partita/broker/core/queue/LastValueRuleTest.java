package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.BrokerFixture;
import org.partita.broker.core.dispatch.EngineFixture;

/**
 * A last value queue keeps the newest message of each key: the rule on its own, then as a queue
 * over a real store applies it (what browsing sees, what a restart reads back, what comes back from
 * a consumer after a newer value arrived).
 */
class LastValueRuleTest {
    private final EngineFixture f = new EngineFixture();

    @TempDir
    Path tmp;

    private QueueEntry price(String text, String symbol) {
        return f.entry(text, symbol == null ? Map.of() : Map.of("symbol", symbol), 4, 0L, 0L);
    }

    @Test
    void aNewerValueSupersedesTheOlderOfItsKeyOnly() {
        LastValueRule rule = new LastValueRule("symbol");
        QueueEntry a1 = price("a1", "A");
        QueueEntry b1 = price("b1", "B");
        QueueEntry a2 = price("a2", "A");
        assertNull(rule.supersede(a1));
        assertNull(rule.supersede(b1), "another key replaces nothing");
        assertSame(a1, rule.supersede(a2), "a2 replaces a1");
        assertTrue(rule.superseded(a1), "a1 must not come back: a2 is newer");
        assertFalse(rule.superseded(a2));
        assertFalse(rule.superseded(b1));
    }

    @Test
    void lastValueQueueKeysEveryMessageAlike() {
        LastValueRule rule = new LastValueRule("queue");
        QueueEntry one = price("one", "A");
        QueueEntry two = price("two", null);
        assertNull(rule.supersede(one));
        assertSame(one, rule.supersede(two), "the queue holds one message, whatever its properties");
    }

    @Test
    void aMessageWithoutTheKeyPropertyIsNeverReplaced() {
        LastValueRule rule = new LastValueRule("symbol");
        QueueEntry x = price("x", null);
        QueueEntry y = price("y", null);
        assertNull(rule.supersede(x));
        assertNull(rule.supersede(y));
        assertFalse(rule.superseded(x));
    }

    @Test
    void aReplacedValueStaysReplacedWhenTheNewerLeaves() {
        LastValueRule rule = new LastValueRule("symbol");
        QueueEntry a1 = price("a1", "A");
        QueueEntry a2 = price("a2", "A");
        rule.supersede(a1);
        rule.supersede(a2);
        rule.removed(a1);
        assertTrue(rule.superseded(a1), "removing the older one leaves a2 the latest");
        rule.removed(a2);
        assertTrue(rule.superseded(a1), "a2 consumed: a1 coming back would be a stale value after a fresher one");
        QueueEntry a3 = price("a3", "A");
        assertNull(rule.supersede(a3), "with a2 gone, a3 is the key's only value");
        assertFalse(rule.superseded(a3));
    }

    @Test
    void depthCountsKeysHeldPlusKeylessMessages() {
        LastValueRule rule = new LastValueRule("symbol");
        QueueEntry a1 = price("a1", "A");
        QueueEntry a2 = price("a2", "A");
        assertEquals(1, rule.hold(a1.message()));
        assertEquals(1, rule.hold(a2.message()), "a second value of A is still one key");
        assertEquals(2, rule.hold(price("b", "B").message()));
        assertEquals(3, rule.hold(price("k", null).message()), "a keyless message counts on its own");
        rule.unhold(a1.message());
        assertEquals(4, rule.hold(price("c", "C").message()), "A is still held by a2");
        rule.unhold(a2.message());
        assertEquals(4, rule.hold(price("d", "D").message()), "A's last message left: A no longer counts");
    }

    @Test
    void browsingAndARestartSeeTheLatestValueOfEachKey() {
        try (BrokerFixture node = new BrokerFixture(tmp.resolve("node"))) {
            BrokerQueue q = node.broker().createQueue("prices", QueueOptions.DEFAULTS.with("lastValue", "symbol"));
            node.send(q, "A=1", Map.of("symbol", "A"));
            node.send(q, "B=1", Map.of("symbol", "B"));
            node.send(q, "A=2", Map.of("symbol", "A"));
            node.send(q, "note", Map.of());
            assertEquals(List.of("B=1", "A=2", "note"), BrokerFixture.browse(q));
            assertEquals(3, q.depth());

            node.restart(q);
            BrokerQueue back = node.broker().existingQueue("prices");
            assertEquals(List.of("B=1", "A=2", "note"), BrokerFixture.browse(back), "A=1's removal was stored");
            node.send(back, "B=2", Map.of("symbol", "B"));
            assertEquals(List.of("A=2", "note", "B=2"), BrokerFixture.browse(back), "the rule holds after a restart");
        }
    }

    @Test
    void anOlderValueHandedBackAfterANewerArrivedIsDropped() {
        try (BrokerFixture node = new BrokerFixture(tmp.resolve("node"))) {
            BrokerQueue q = node.broker().createQueue("prices", QueueOptions.DEFAULTS.with("lastValue", "symbol"));
            node.send(q, "A=1", Map.of("symbol", "A"));
            BrokerFixture.Receiver r = node.attach(q, "r", 1);
            QueueEntry a1 = r.next();
            assertEquals("A=1", BrokerFixture.text(a1.message()), "a delivered value stays with its consumer");
            node.send(q, "A=2", Map.of("symbol", "A"));
            q.release(a1, r.ref, true);
            q.credit(r.ref, 1);
            QueueEntry next = r.next();
            assertEquals("A=2", BrokerFixture.text(next.message()), "A=1 came back after A=2 arrived: it is gone");
            r.ack(next);
            assertEquals(List.of(), BrokerFixture.browse(q));
            assertEquals(0, q.depth());
        }
    }

    /** A=1 held by a slow consumer while A=2 replaced it and was consumed by a fast one. */
    private record ReplacedInFlight(
            BrokerQueue queue, BrokerFixture.Receiver slow, QueueEntry a1, BrokerFixture.Receiver fast) {
        static ReplacedInFlight on(BrokerFixture node) {
            BrokerQueue q = node.broker().createQueue("prices", QueueOptions.DEFAULTS.with("lastValue", "symbol"));
            node.send(q, "A=1", Map.of("symbol", "A"));
            BrokerFixture.Receiver slow = node.attach(q, "slow", 1);
            QueueEntry a1 = slow.next();
            node.send(q, "A=2", Map.of("symbol", "A"));
            BrokerFixture.Receiver fast = node.attach(q, "fast", 1);
            QueueEntry a2 = fast.next();
            assertEquals("A=2", BrokerFixture.text(a2.message()), "the newer value goes to the free consumer");
            fast.ack(a2);
            return new ReplacedInFlight(q, slow, a1, fast);
        }
    }

    /**
     * Found by the last value nemesis: a value in flight whose consumer went away came back after a
     * newer value of its key had been delivered and acknowledged (the newer one no longer being
     * held, nothing remembered that the older one had been replaced). A stale price after a fresh one.
     */
    @Test
    void anOlderValueHandedBackAfterTheNewerWasConsumedStaysGone() {
        try (BrokerFixture node = new BrokerFixture(tmp.resolve("node"))) {
            ReplacedInFlight r = ReplacedInFlight.on(node);
            r.queue().release(r.a1(), r.slow().ref, true);
            r.queue().credit(r.fast().ref, 1);
            assertEquals(List.of(), r.fast().pending(), "A=1 is older than the A=2 consumed: it must not come back");
            assertEquals(List.of(), BrokerFixture.browse(r.queue()));
            assertEquals(0, r.queue().depth());
        }
    }

    /** The same across a restart: the store must not keep a replaced value to read back. */
    @Test
    void aRestartDoesNotBringBackAValueReplacedWhileItWasInFlight() {
        try (BrokerFixture node = new BrokerFixture(tmp.resolve("node"))) {
            ReplacedInFlight r = ReplacedInFlight.on(node);
            node.restart(r.queue());
            BrokerQueue back = node.broker().existingQueue("prices");
            assertEquals(
                    List.of(), BrokerFixture.browse(back), "A=1 was replaced in flight: the store must have let it go");
        }
    }
}
