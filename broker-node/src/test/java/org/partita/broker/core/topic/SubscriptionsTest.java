package org.partita.broker.core.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.BrokerFixture;
import org.partita.broker.core.queue.UnknownDestinationException;

/**
 * The topic side of a node over a real store: which subscriptions exist, which take a published
 * message, how many consumers each has, and which outlive their consumers (durable ones, a restart too).
 */
class SubscriptionsTest {
    private static final Object CONNECTION = new Object();
    private static final Object OTHER_CONNECTION = new Object();

    @TempDir
    Path tmp;

    private BrokerFixture node;

    @BeforeEach
    void start() {
        node = new BrokerFixture(tmp.resolve("node"));
    }

    @AfterEach
    void stop() {
        node.close();
    }

    private Subscriptions subs() {
        return node.broker().subscriptions();
    }

    private SubscriptionView view(String name) {
        return subs().describe().stream()
                .filter(v -> v.name().equals(name))
                .findFirst()
                .orElse(null);
    }

    @Test
    void aDurableSubscriptionKeepsMessagesWithoutConsumersAndAcrossARestart() {
        Subscription s = subs().openDurable("app", "orders", "shop/orders", null, false, false, CONNECTION);
        assertEquals("durable:app:orders", s.name());
        subs().consumerClosed(s);
        SubscriptionView v = view(s.name());
        assertNotNull(v, "a durable subscription outlives its consumers");
        assertEquals("durable", v.kind());
        assertEquals(0, v.consumers());
        assertEquals(List.of(s.name()), node.publish("shop/orders", "o1", Map.of(), OTHER_CONNECTION));

        node.restart(s.queue());
        assertEquals("shop/orders", subs().durableTopic("app", "orders"));
        assertEquals(
                List.of(s.name()), node.publish("shop/orders", "o2", Map.of(), OTHER_CONNECTION), "it still routes");
        Subscription back = subs().openDurable("app", "orders", "shop/orders", null, false, false, CONNECTION);
        assertEquals(List.of("o1", "o2"), BrokerFixture.browse(back.queue()), "what it held is still there");
    }

    @Test
    void anUnsharedDurableSubscriptionTakesOneConsumerAtATime() {
        Subscription s = subs().openDurable("app", "orders", "shop/orders", null, false, false, CONNECTION);
        assertThrows(
                SubscriptionConflictException.class,
                () -> subs().openDurable("app", "orders", "shop/orders", null, false, false, OTHER_CONNECTION));
        assertThrows(
                SubscriptionConflictException.class,
                () -> subs().openDurable("app", "orders", "shop/orders", null, false, true, OTHER_CONNECTION),
                "it is not shared, so it cannot be opened as shared");
        subs().consumerClosed(s);
        Subscription again = subs().openDurable("app", "orders", "shop/orders", null, false, false, OTHER_CONNECTION);
        assertSame(s.queue(), again.queue(), "the same subscription once its consumer closed");
        assertEquals(1, view(s.name()).consumers());
    }

    @Test
    void reopeningADurableSubscriptionWithAnotherTopicReplacesItAndItsMessages() {
        Subscription s = subs().openDurable("app", "orders", "shop/orders", null, false, false, CONNECTION);
        subs().consumerClosed(s);
        node.publish("shop/orders", "o1", Map.of(), OTHER_CONNECTION);
        Subscription replaced = subs().openDurable("app", "orders", "shop/returns", null, false, false, CONNECTION);
        assertEquals(List.of(), BrokerFixture.browse(replaced.queue()), "JMS 6.11.1: a new subscription, empty");
        assertEquals(
                List.of(),
                node.publish("shop/orders", "o2", Map.of(), OTHER_CONNECTION),
                "the old topic no longer routes");
        assertEquals(List.of(s.name()), node.publish("shop/returns", "r1", Map.of(), OTHER_CONNECTION));
        assertEquals("shop/returns", subs().durableTopic("app", "orders"));
    }

    @Test
    void aSharedDurableSubscriptionTakesSeveralConsumersOfTheSameDefinition() {
        Subscription a = subs().openDurable(null, "audit", "shop/>", "amount > 10", false, true, CONNECTION);
        Subscription b = subs().openDurable(null, "audit", "shop/>", "amount > 10", false, true, OTHER_CONNECTION);
        assertSame(a.queue(), b.queue(), "both consume from one queue");
        assertEquals("shared-durable", view(a.name()).kind());
        assertEquals(2, view(a.name()).consumers());
        assertThrows(
                SubscriptionConflictException.class,
                () -> subs().openDurable(null, "audit", "shop/orders", null, false, true, CONNECTION),
                "another definition while it has consumers");
        assertEquals(List.of(a.name()), node.publish("shop/orders", "big", Map.of("amount", 50), OTHER_CONNECTION));
        assertEquals(
                List.of(),
                node.publish("shop/orders", "small", Map.of("amount", 5), OTHER_CONNECTION),
                "its selector leaves this one out");
        assertEquals(List.of(), node.publish("mill/orders", "elsewhere", Map.of("amount", 50), OTHER_CONNECTION));
    }

    @Test
    void unsubscribeRemovesADurableSubscriptionOnlyWithoutConsumers() {
        Subscription s = subs().openDurable("app", "orders", "shop/orders", null, false, false, CONNECTION);
        assertThrows(SubscriptionConflictException.class, () -> subs().unsubscribe("app", "orders"));
        subs().consumerClosed(s);
        subs().unsubscribe("app", "orders");
        assertNull(view(s.name()));
        assertNull(node.broker().existingQueue(s.name()), "its queue went with it");
        assertThrows(UnknownDestinationException.class, () -> subs().unsubscribe("app", "orders"));

        node.restart();
        assertNull(subs().durableTopic("app", "orders"), "and it does not come back after a restart");
        assertNull(node.broker().existingQueue(s.name()));
    }

    @Test
    void aSharedSubscriptionEndsWithItsLastConsumer() {
        Subscription a = subs().openShared("app", "feed", "news/sport", null);
        Subscription b = subs().openShared("app", "feed", "news/sport", null);
        assertSame(a.queue(), b.queue());
        assertEquals("shared", view(a.name()).kind());
        assertThrows(
                SubscriptionConflictException.class, () -> subs().openShared("app", "feed", "news/politics", null));
        subs().consumerClosed(a);
        assertEquals(1, view(a.name()).consumers(), "one consumer is left");
        assertEquals(List.of(a.name()), node.publish("news/sport", "goal", Map.of(), CONNECTION));
        subs().consumerClosed(b);
        assertNull(view(a.name()));
        assertNull(node.broker().existingQueue(a.name()));
        assertEquals(List.of(), node.publish("news/sport", "goal", Map.of(), CONNECTION));
    }

    @Test
    void aPrivateSubscriptionIsItsConsumersAloneAndNoLocalSkipsItsOwnConnection() {
        Subscription mine = subs().openPrivate("sub-1", "news/*", null, true, CONNECTION);
        Subscription theirs = subs().openPrivate("sub-2", "news/*", null, false, OTHER_CONNECTION);
        assertEquals("private", view(mine.name()).kind());
        assertEquals(
                List.of("sub-2"),
                node.publish("news/sport", "own", Map.of(), CONNECTION),
                "noLocal: a message of its own connection is not taken");
        assertEquals(List.of("sub-1", "sub-2"), node.publish("news/sport", "other", Map.of(), OTHER_CONNECTION));
        subs().consumerClosed(mine);
        assertNull(node.broker().existingQueue("sub-1"), "gone with its consumer");
        assertEquals(List.of("sub-2"), node.publish("news/sport", "later", Map.of(), OTHER_CONNECTION));
        assertEquals(List.of("own", "other", "later"), BrokerFixture.browse(theirs.queue()));
    }
}
