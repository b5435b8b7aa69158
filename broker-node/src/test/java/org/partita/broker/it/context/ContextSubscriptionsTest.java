package org.partita.broker.it.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;

/** Topics through a context: plain, no-local, durable, shared and shared durable consumers, unsubscribe. */
@Tag("slow")
class ContextSubscriptionsTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private void publish(Topic t, String... bodies) {
        try (JMSContext publisher = node.factory().createContext()) {
            JMSProducer p = publisher.createProducer();
            for (String b : bodies) {
                p.send(t, b);
            }
        }
    }

    @Test
    void everyTopicConsumerGetsEveryMessage() {
        try (JMSContext ctx = node.factory().createContext()) {
            Topic t = ctx.createTopic("news");
            JMSConsumer a = ctx.createConsumer(t);
            JMSConsumer b = ctx.createConsumer(t);
            publish(t, "n1", "n2");
            assertEquals(List.of("n1", "n2"), Wait.receiveTexts(a, 2));
            assertEquals(List.of("n1", "n2"), Wait.receiveTexts(b, 2));
            String sentinel = Wait.sendSentinel(ctx, t);
            Wait.assertNextIsSentinel(a, sentinel, "each message comes once to the first consumer");
            Wait.assertNextIsSentinel(b, sentinel, "each message comes once to the second consumer");
        }
    }

    @Test
    void aNoLocalConsumerIgnoresItsOwnConnectionsMessages() {
        try (JMSContext ctx = node.factory().createContext()) {
            Topic t = ctx.createTopic("chatter");
            JMSConsumer c = ctx.createConsumer(t, null, true);
            ctx.createProducer().send(t, "own");
            JMSContext sibling = ctx.createContext(JMSContext.AUTO_ACKNOWLEDGE);
            sibling.createProducer().send(t, "own too: same connection");
            sibling.close();
            publish(t, "foreign");
            assertEquals("foreign", c.receiveBody(String.class, Wait.ARRIVES));
            try (JMSContext other = node.factory().createContext()) {
                Wait.assertNothingAhead(other, t, c, "nothing of its own connection's comes after");
            }
        }
    }

    @Test
    void aDurableConsumerKeepsMessagesWhileAwayUntilUnsubscribed() {
        Topic t;
        try (JMSContext ctx = node.factory().createContext()) {
            ctx.setClientID("durable-ctx");
            t = ctx.createTopic("prices");
            ctx.createDurableConsumer(t, "watch").close();
        }
        publish(t, "p1", "p2");
        try (JMSContext ctx = node.factory().createContext()) {
            ctx.setClientID("durable-ctx");
            JMSConsumer c = ctx.createDurableConsumer(t, "watch"); // auto-start applies to durable consumers too
            assertEquals("p1", c.receiveBody(String.class, Wait.ARRIVES));
            assertEquals("p2", c.receiveBody(String.class, Wait.ARRIVES));
            assertThrows(JMSRuntimeException.class, () -> ctx.unsubscribe("watch"), "a consumer is still active");
            c.close();
            ctx.unsubscribe("watch");
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.unsubscribe("watch"), "already gone");
        }
        publish(t, "p3");
        try (JMSContext ctx = node.factory().createContext()) {
            ctx.setClientID("durable-ctx");
            JMSConsumer fresh = ctx.createDurableConsumer(t, "watch");
            Wait.assertNothingAhead(ctx, t, fresh, "a new subscription starts empty");
            fresh.close();
            ctx.unsubscribe("watch");
        }
    }

    @Test
    void aDurableConsumerWithASelectorKeepsOnlyWhatMatches() throws Exception {
        Topic t;
        try (JMSContext ctx = node.factory().createContext()) {
            ctx.setClientID("selective");
            t = ctx.createTopic("alerts");
            ctx.createDurableConsumer(t, "severe", "level >= 3", false).close();
            JMSProducer p = ctx.createProducer();
            for (int level = 1; level <= 4; level++) {
                p.setProperty("level", level).send(t, "level " + level);
            }
            JMSConsumer c = ctx.createDurableConsumer(t, "severe", "level >= 3", false);
            assertEquals("level >= 3", c.getMessageSelector());
            assertEquals(List.of("level 3", "level 4"), Wait.receiveTexts(c, 2));
            Wait.assertNothingAhead(
                    ctx, ctx.createProducer().setProperty("level", 5), t, c, "levels 1 and 2 were not kept");
            c.close();
            ctx.unsubscribe("severe");
        }
    }

    @Test
    void anUnsharedDurableConsumerNeedsAClientId() {
        try (JMSContext ctx = node.factory().createContext()) {
            Topic t = ctx.createTopic("anonymous");
            assertThrows(IllegalStateRuntimeException.class, () -> ctx.createDurableConsumer(t, "nameless"));
            assertThrows(
                    IllegalStateRuntimeException.class, () -> ctx.createDurableConsumer(t, "nameless", null, false));
        }
    }

    @Test
    void sharedConsumersOfTwoContextsSplitTheSubscriptionsMessages() throws Exception {
        try (JMSContext a = node.factory().createContext();
                JMSContext b = a.createContext(JMSContext.AUTO_ACKNOWLEDGE)) {
            Topic t = a.createTopic("work");
            JMSConsumer ca = a.createSharedConsumer(t, "workers");
            JMSConsumer cb = b.createSharedConsumer(t, "workers");
            JMSConsumer filtered = b.createSharedConsumer(t, "evens", "n < 10");
            assertEquals("n < 10", filtered.getMessageSelector());
            JMSProducer p = a.createProducer();
            for (int i = 0; i < 20; i++) {
                p.setProperty("n", i).send(t, "job" + i);
            }
            Set<String> seen = new HashSet<>();
            List<Message> got = Wait.receiveFromAny(20, ca, cb);
            for (Message m : got) {
                seen.add(m.getBody(String.class));
            }
            assertEquals(20, got.size(), "each message once across the shared subscription");
            assertEquals(20, seen.size());
            Wait.awaitSubscriptionHoldsNothing(node.factory(), "workers", "the shared subscription holds nothing more");
            assertEquals(
                    IntStream.range(0, 10).mapToObj(i -> "job" + i).toList(),
                    Wait.receiveTexts(filtered, 10),
                    "the selector's subscription gets n < 10");
            Wait.awaitSubscriptionHoldsNothing(node.factory(), "evens", "it holds nothing more");
        }
    }

    @Test
    void aSharedDurableConsumerNeedsNoClientIdAndKeepsMessagesWhileNobodyListens() throws Exception {
        Topic t;
        try (JMSContext ctx = node.factory().createContext()) {
            t = ctx.createTopic("audit");
            ctx.createSharedDurableConsumer(t, "auditors").close();
        }
        publish(t, "e1", "e2");
        try (JMSContext one = node.factory().createContext();
                JMSContext two = node.factory().createContext()) {
            JMSConsumer c1 = one.createSharedDurableConsumer(t, "auditors");
            JMSConsumer c2 = two.createSharedDurableConsumer(t, "auditors", null);
            List<String> got = new ArrayList<>();
            for (Message m : Wait.receiveFromAny(2, c1, c2)) {
                got.add(m.getBody(String.class));
            }
            Collections.sort(got);
            assertEquals(List.of("e1", "e2"), got);
            Wait.awaitSubscriptionHoldsNothing(node.factory(), "auditors", "each message came once");
            c1.close();
            c2.close();
            one.unsubscribe("auditors");
        }
    }

    @Test
    void createSharedConsumerStartsTheConnection() {
        try (JMSContext ctx = node.factory().createContext()) {
            Topic t = ctx.createTopic("starts");
            JMSConsumer c = ctx.createSharedConsumer(t, "starter");
            publish(t, "go");
            assertEquals("go", c.receiveBody(String.class, Wait.ARRIVES));
        }
    }
}
