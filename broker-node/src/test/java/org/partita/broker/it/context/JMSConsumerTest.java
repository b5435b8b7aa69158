package org.partita.broker.it.context;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;

/** JMSConsumer: the receive and receiveBody variants, receiveBody's type rules, listeners, selectors. */
@Tag("slow")
class JMSConsumerTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    record Point(int x, int y) implements Serializable {}

    @Test
    void aContextsConsumerOffersPartitasControls() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            JMSConsumer consumer = ctx.createConsumer(ctx.createQueue("ctx-parts?partitions=4&rebalanceDelay=100"));
            org.partita.jms.api.PartitaConsumer controls = org.partita.jms.api.PartitaConsumer.of(consumer);
            List<java.util.Set<Integer>> assigned = Collections.synchronizedList(new ArrayList<>());
            controls.setPartitionListener(new org.partita.jms.api.PartitionListener() {
                @Override
                public void onPartitionsAssigned(java.util.Set<Integer> partitions) {
                    assigned.add(partitions);
                }

                @Override
                public void onPartitionsRevoked(java.util.Set<Integer> partitions) {}
            });
            controls.setPriority(7);
            assertEquals(7, controls.getPriority());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> controls.getOwnedPartitions().equals(java.util.Set.of(0, 1, 2, 3)));
            await().atMost(Duration.ofSeconds(10)).until(() -> !assigned.isEmpty());
            ctx.createProducer().send(ctx.createQueue("ctx-parts"), "through the context");
            assertEquals("through the context", consumer.receiveBody(String.class, 5000), "the same consumer receives");
        }
        assertThrows(IllegalArgumentException.class, () -> org.partita.jms.api.PartitaConsumer.of(null));
    }

    @Test
    void receiveBodyReturnsTheBodyOfEachKindAsItsType() {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("bodies");
            JMSProducer p = ctx.createProducer();
            p.send(q, "text").send(q, Map.of("k", 1)).send(q, new byte[] {4, 5}).send(q, new Point(1, 2));
            JMSConsumer c = ctx.createConsumer(q);
            assertEquals("text", c.receiveBody(String.class, Wait.ARRIVES));
            @SuppressWarnings("unchecked")
            Map<String, Object> map = c.receiveBody(Map.class, Wait.ARRIVES);
            assertEquals(Map.of("k", 1), map);
            assertArrayEquals(new byte[] {4, 5}, c.receiveBody(byte[].class, Wait.ARRIVES));
            assertEquals(new Point(1, 2), c.receiveBody(Point.class, Wait.ARRIVES));
        }
    }

    @Test
    void receiveBodyAcceptsAnySupertypeOfTheBody() {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("supertypes");
            JMSProducer p = ctx.createProducer();
            p.send(q, "text")
                    .send(q, Map.of("k", "v"))
                    .send(q, new byte[] {1})
                    .send(q, new Point(3, 4))
                    .send(q, (Serializable) "a string object");
            JMSConsumer c = ctx.createConsumer(q);
            assertEquals("text", c.receiveBody(CharSequence.class, Wait.ARRIVES));
            assertInstanceOf(Map.class, c.receiveBody(Object.class, Wait.ARRIVES));
            assertInstanceOf(byte[].class, c.receiveBody(Object.class, Wait.ARRIVES));
            assertEquals(new Point(3, 4), c.receiveBody(Serializable.class, Wait.ARRIVES));
            assertEquals("a string object", c.receiveBody(String.class, Wait.ARRIVES), "an object message's String");
        }
    }

    @Test
    void receiveVariantsReturnNullWhenNothingComes() {
        try (JMSContext ctx = node.factory().createContext()) {
            JMSConsumer c = ctx.createConsumer(ctx.createQueue("empty"));
            // The timeout itself is tested: nothing is ever sent to this queue, so null is the only answer.
            long timeout = 200;
            assertNull(c.receiveNoWait());
            long start = System.nanoTime();
            assertNull(c.receive(timeout));
            assertTrue(millisSince(start) >= timeout, "receive(timeout) waits out its timeout");
            assertNull(c.receiveBodyNoWait(String.class));
            start = System.nanoTime();
            assertNull(c.receiveBody(String.class, timeout));
            assertTrue(millisSince(start) >= timeout, "receiveBody(timeout) waits out its timeout");
        }
    }

    @Test
    void receiveNoWaitAndReceiveBodyNoWaitTakeWhatHasArrived() {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("no-wait");
            JMSConsumer c = ctx.createConsumer(q);
            ctx.createProducer().send(q, "first").send(q, "second");
            Message first = await().atMost(Duration.ofSeconds(10)).until(c::receiveNoWait, m -> m != null);
            assertEquals("first", ((TextMessage) first).getText());
            String second = await().atMost(Duration.ofSeconds(10))
                    .until(() -> c.receiveBodyNoWait(String.class), b -> b != null);
            assertEquals("second", second);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void receiveWithoutTimeoutWaitsForTheNextMessage() throws Exception {
        try (JMSContext ctx = node.factory().createContext();
                JMSContext sender = node.factory().createContext()) {
            Queue q = ctx.createQueue("blocking");
            JMSConsumer c = ctx.createConsumer(q);
            CompletableFuture<Object> first = new CompletableFuture<>();
            Thread receiver = blockedCall(() -> ((TextMessage) c.receive()).getText(), first);
            assertFalse(first.isDone(), "receive() returned while the queue was empty: " + first.getNow(null));
            sender.createProducer().send(q, "one");
            assertEquals("one", first.get(10, TimeUnit.SECONDS));
            receiver.join(10_000);
            CompletableFuture<Object> rest = new CompletableFuture<>();
            blockedCall(() -> c.receiveBody(String.class) + "," + c.receiveBody(String.class, 0), rest);
            assertFalse(rest.isDone(), "receiveBody returned while the queue was empty: " + rest.getNow(null));
            sender.createProducer().send(q, "two").send(q, "three");
            assertEquals("two,three", rest.get(10, TimeUnit.SECONDS), "a timeout of zero never expires");
        }
    }

    @Test
    void closingAConsumerReleasesABlockedReceiveWithNull() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            JMSConsumer c = ctx.createConsumer(ctx.createQueue("released"));
            CompletableFuture<Object> blocked = new CompletableFuture<>();
            blockedCall(() -> c.receiveBody(String.class), blocked);
            assertFalse(blocked.isDone(), "receiveBody returned while the queue was empty: " + blocked.getNow(null));
            c.close();
            assertNull(blocked.get(10, TimeUnit.SECONDS));
            assertThrows(IllegalStateRuntimeException.class, () -> c.receive(10));
            c.close(); // closing twice is harmless
        }
    }

    @Test
    void aBodyOfAnotherTypeInAutoModeIsNotConsumedAndComesBackUnchanged() throws Exception {
        checkMismatchLeavesMessageFirst(JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Test
    void aBodyOfAnotherTypeInDupsOkModeIsNotConsumedAndComesBackUnchanged() throws Exception {
        checkMismatchLeavesMessageFirst(JMSContext.DUPS_OK_ACKNOWLEDGE);
    }

    /** JMSConsumer.receiveBody javadoc: in the auto modes it is as if the failed call had not happened. */
    private void checkMismatchLeavesMessageFirst(int mode) throws Exception {
        try (JMSContext ctx = node.factory().createContext(mode)) {
            Queue q = ctx.createQueue("mismatch-" + mode);
            ctx.createProducer().send(q, "a text").send(q, "next");
            JMSConsumer c = ctx.createConsumer(q);
            assertThrows(MessageFormatRuntimeException.class, () -> c.receiveBody(Integer.class, Wait.ARRIVES));
            assertThrows(MessageFormatRuntimeException.class, () -> c.receiveBody(byte[].class, Wait.ARRIVES));
            assertThrows(MessageFormatRuntimeException.class, () -> c.receiveBodyNoWait(Map.class));
            Message again = c.receive(Wait.ARRIVES);
            assertEquals("a text", ((TextMessage) again).getText(), "delivered again before any later message");
            assertFalse(again.getJMSRedelivered(), "not a redelivery");
            assertEquals(1, again.getIntProperty("JMSXDeliveryCount"));
            assertEquals("next", c.receiveBody(String.class, Wait.ARRIVES));
        }
        try (JMSContext check = node.factory().createContext()) {
            Queue q = check.createQueue("mismatch-" + mode);
            Wait.assertNothingAhead(
                    check, q, check.createConsumer(q), "both messages were acknowledged once received successfully");
        }
    }

    @Test
    void aBodyOfAnotherTypeInClientAcknowledgeModeCountsAsReceivedUntilRecover() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("mismatch-client");
            ctx.createProducer().send(q, "a text").send(q, "next");
            JMSConsumer c = ctx.createConsumer(q);
            assertThrows(MessageFormatRuntimeException.class, () -> c.receiveBody(Map.class, Wait.ARRIVES));
            assertEquals(
                    "next", c.receiveBody(String.class, Wait.ARRIVES), "the failed message is not delivered again");
            String sentinel = Wait.sendSentinel(ctx, q);
            Wait.assertNextIsSentinel(c, sentinel, "nor after the next one");
            ctx.recover();
            List<String> redelivered = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Message m = c.receive(Wait.ARRIVES);
                assertNotNull(m, "recovered message " + (i + 1) + " of 3; before it: " + redelivered);
                assertTrue(m.getJMSRedelivered());
                assertEquals(2, m.getIntProperty("JMSXDeliveryCount"));
                redelivered.add(((TextMessage) m).getText());
            }
            Collections.sort(redelivered);
            List<String> expected = new ArrayList<>(List.of("a text", "next", sentinel));
            Collections.sort(expected);
            assertEquals(expected, redelivered, "recover gives back the failed message with the others");
            Wait.assertNothingAhead(ctx, q, c, "recover gives each back once");
            ctx.acknowledge();
        }
    }

    @Test
    void aBodyOfAnotherTypeInATransactionCountsAsReceivedUntilRollback() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.SESSION_TRANSACTED);
                JMSContext sender = node.factory().createContext()) {
            Queue q = ctx.createQueue("mismatch-tx");
            ctx.createProducer().send(q, "a text");
            ctx.commit();
            JMSConsumer c = ctx.createConsumer(q);
            assertThrows(MessageFormatRuntimeException.class, () -> c.receiveBody(Long.class, Wait.ARRIVES));
            // sent outside the transaction, so that it commits nothing the rollback is to give back
            String sentinel = Wait.sendSentinel(sender, q);
            Wait.assertNextIsSentinel(c, sentinel, "the failed message is not delivered again");
            ctx.rollback();
            Map<String, Message> back = new HashMap<>();
            for (int i = 0; i < 2; i++) {
                Message m = c.receive(Wait.ARRIVES);
                assertNotNull(m, "rolled back message " + (i + 1) + " of 2; before it: " + back.keySet());
                back.put(((TextMessage) m).getText(), m);
            }
            assertEquals(Set.of("a text", sentinel), back.keySet(), "the rollback gives back the failed message");
            Message m = back.get("a text");
            assertTrue(m.getJMSRedelivered());
            assertEquals(2, m.getIntProperty("JMSXDeliveryCount"));
            ctx.commit();
        }
    }

    @Test
    void receiveBodyRefusesStreamMessagesPlainMessagesAndMessagesWithoutABody() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("no-body");
            JMSProducer p = ctx.createProducer();
            StreamMessage stream = ctx.createStreamMessage();
            stream.writeInt(1);
            p.send(q, stream);
            p.send(q, ctx.createMessage());
            p.send(q, (String) null);
            p.send(q, (byte[]) null);
            p.send(q, (Map<String, Object>) null);
            p.send(q, (Serializable) null);
            JMSConsumer c = ctx.createConsumer(q);
            for (int i = 0; i < 6; i++) {
                int n = i;
                assertThrows(
                        MessageFormatRuntimeException.class,
                        () -> c.receiveBody(Object.class, Wait.ARRIVES),
                        () -> "message " + n);
                assertNotNull(c.receive(Wait.ARRIVES), "the refused message is still there to receive()");
            }
        }
    }

    @Test
    void aMessageListenerReceivesAndExcludesReceive() throws Exception {
        try (JMSContext ctx = node.factory().createContext();
                JMSContext sender = node.factory().createContext()) {
            Queue q = ctx.createQueue("listened");
            JMSConsumer c = ctx.createConsumer(q);
            assertNull(c.getMessageListener());
            List<String> got = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch latch = new CountDownLatch(3);
            MessageListener listener = m -> {
                try {
                    got.add(m.getBody(String.class));
                } catch (jakarta.jms.JMSException e) {
                    got.add(e.toString());
                }
                latch.countDown();
            };
            c.setMessageListener(listener);
            assertSame(listener, c.getMessageListener());
            sender.createProducer().send(q, "l1").send(q, "l2").send(q, "l3");
            assertTrue(latch.await(10, TimeUnit.SECONDS));
            assertEquals(List.of("l1", "l2", "l3"), got);
            assertThrows(IllegalStateRuntimeException.class, () -> c.receive(10));
            assertThrows(IllegalStateRuntimeException.class, () -> c.receiveBody(String.class, 10));
            c.setMessageListener(null);
            assertNull(c.getMessageListener());
            sender.createProducer().send(q, "l4");
            assertEquals("l4", c.receiveBody(String.class, Wait.ARRIVES));
        }
    }

    @Test
    void aSelectorFiltersAndIsReportedByTheConsumer() {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("selected");
            JMSConsumer big = ctx.createConsumer(q, "size > 5");
            assertEquals("size > 5", big.getMessageSelector());
            JMSProducer p = ctx.createProducer();
            for (int i = 0; i < 10; i++) {
                p.setProperty("size", i).send(q, "s" + i);
            }
            assertEquals(List.of("s6", "s7", "s8", "s9"), Wait.receiveTexts(big, 4));
            Wait.assertNothingAhead(
                    ctx, ctx.createProducer().setProperty("size", 6), q, big, "s0 to s5 do not reach it");
            assertNull(ctx.createConsumer(q).getMessageSelector(), "no selector");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anEmptySelectorMeansNoSelector() {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("empty-selector");
            JMSConsumer c = ctx.createConsumer(q, "");
            assertNull(c.getMessageSelector(), "an empty selector is reported as null (JMSConsumer javadoc)");
            JMSConsumer c2 = ctx.createConsumer(q, null, false);
            assertNull(c2.getMessageSelector());
            ctx.createProducer().send(q, "all pass");
            c2.close();
            assertEquals("all pass", c.receiveBody(String.class, Wait.ARRIVES));
        }
    }

    @Test
    void closingTheContextClosesItsConsumers() {
        JMSContext ctx = node.factory().createContext();
        JMSConsumer c = ctx.createConsumer(ctx.createQueue("owned"));
        ctx.close();
        assertThrows(IllegalStateRuntimeException.class, c::receiveNoWait);
        assertThrows(IllegalStateRuntimeException.class, c::getMessageSelector);
        assertThrows(IllegalStateRuntimeException.class, () -> c.setMessageListener(m -> {}));
        c.close(); // closing a closed consumer is harmless
    }

    @Test
    void theBodiesOfMapAndBytesMessagesAreCopies() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("copies");
            MapMessage mm = ctx.createMapMessage();
            mm.setInt("n", 1);
            BytesMessage bm = ctx.createBytesMessage();
            bm.writeBytes(new byte[] {9, 8});
            ctx.createProducer().send(q, mm).send(q, bm);
            JMSConsumer c = ctx.createConsumer(q);
            @SuppressWarnings("unchecked")
            Map<String, Object> map = c.receiveBody(Map.class, Wait.ARRIVES);
            assertEquals(1, map.get("n"));
            assertArrayEquals(new byte[] {9, 8}, c.receiveBody(byte[].class, Wait.ARRIVES));
        }
    }

    private static long millisSince(long nanoTime) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanoTime);
    }

    /**
     * Runs {@code call} on a thread of its own, its outcome (result or exception) completing
     * {@code outcome}, and returns once that thread is blocked waiting (or has finished), which is
     * the event a "the call blocks" test means.
     */
    private static Thread blockedCall(java.util.concurrent.Callable<Object> call, CompletableFuture<Object> outcome) {
        Thread t = new Thread(
                () -> {
                    try {
                        outcome.complete(call.call());
                    } catch (Throwable e) {
                        outcome.complete(e);
                    }
                },
                "blocked-call");
        t.setDaemon(true);
        t.start();
        await("the call to block")
                .atMost(Duration.ofSeconds(10))
                .until(() -> !t.isAlive()
                        || t.getState() == Thread.State.WAITING
                        || t.getState() == Thread.State.TIMED_WAITING);
        return t;
    }
}
