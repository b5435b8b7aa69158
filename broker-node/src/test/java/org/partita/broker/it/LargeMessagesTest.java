package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.jms.api.PartitaProperties;

/**
 * Large messages (docs/large-messages.md): a body above {@code largeMessageBytes}, or sent from a
 * stream, travels in parts and is kept by the node in a file of its own, never whole in its heap;
 * received whole, or into a stream; deleted once acknowledged, rolled back or never sent; kept
 * through a restart. Real node, real TCP.
 */
class LargeMessagesTest {
    private static final int MIB = 1 << 20;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private Path bodies() {
        return node.dataDir().resolve("large");
    }

    private long bodyFiles() throws IOException {
        try (Stream<Path> files = Files.list(bodies())) {
            return files.count();
        }
    }

    private static byte[] pattern(int bytes, int seed) {
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            b[i] = (byte) (i * 31 + seed + (i >>> 13));
        }
        return b;
    }

    @Test
    void aBodyLargerThanTheThresholdIsKeptApartAndDeliveredWholeThenDeleted() throws Exception {
        byte[] body = pattern(40 * MIB + 17, 3);
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("big"));
            BytesMessage m = s.createBytesMessage();
            m.writeBytes(body);
            m.setStringProperty("name", "forty");
            p.send(m);
            assertEquals(1, bodyFiles(), "the body waits in a file of its own");
            assertEquals(body.length, node.node().largeBodies().bytes());

            Message got = s.createConsumer(s.createQueue("big")).receive(10_000);
            BytesMessage b = assertInstanceOf(BytesMessage.class, got);
            assertEquals("forty", b.getStringProperty("name"));
            assertEquals(body.length, b.getBodyLength());
            assertEquals((long) body.length, b.getLongProperty(PartitaProperties.LARGE_BODY_BYTES));
            assertArrayEquals(body, b.getBody(byte[].class));
            byte[] start = new byte[5];
            assertEquals(5, b.readBytes(start));
            assertArrayEquals(Arrays.copyOf(body, 5), start);
            assertEquals(1, bodyFiles(), "kept until acknowledged");
            b.acknowledge();
            await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
        }
    }

    @Test
    void aBodySentFromAStreamIsReceivedIntoAStreamWithoutEitherSideHoldingItWhole() throws Exception {
        long length = 300L * MIB + 5;
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("stream"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            BytesMessage m = s.createBytesMessage();
            Generated source = new Generated(length, 7);
            m.setObjectProperty(PartitaProperties.INPUT_STREAM, source);
            p.send(m);
            assertTrue(source.closed, "the stream was read to its end and closed");

            BytesMessage got =
                    (BytesMessage) s.createConsumer(s.createQueue("stream")).receive(60_000);
            assertNotNull(got, "the large message came");
            assertEquals(length, got.getBodyLength());
            Digesting saved = new Digesting();
            got.setObjectProperty(PartitaProperties.SAVE_STREAM, saved);
            assertEquals(length, saved.count);
            assertArrayEquals(new Generated(length, 7).digest(), saved.digest.digest(), "the same bytes came back");
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
    }

    /**
     * Started together, as applications start: four producers send keyed large messages at once (their
     * parts interleaved on the node) to a partitioned queue whose two consumers attach at the same
     * moment; every body arrives whole, each key in its order, and no file is left.
     */
    @Test
    void concurrentLargeSendsKeepEachKeyInOrderWithEveryBodyWhole() throws Exception {
        String queue = "bulk?partitions=4";
        int producers = 4;
        int perProducer = 12;
        java.util.Map<String, java.util.List<Integer>> byKey = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.List<String> bad = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger received = new java.util.concurrent.atomic.AtomicInteger();
        java.util.List<Connection> connections = new java.util.ArrayList<>();
        java.util.concurrent.ExecutorService senders = java.util.concurrent.Executors.newFixedThreadPool(producers);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            java.util.List<java.util.concurrent.Future<?>> sends = new java.util.ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                Connection c = node.factory().createConnection();
                connections.add(c);
                sends.add(senders.submit(() -> {
                    start.await();
                    Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageProducer mp = s.createProducer(s.createQueue(queue));
                    for (int i = 0; i < perProducer; i++) {
                        BytesMessage m = s.createBytesMessage();
                        m.writeBytes(pattern(MIB + 1000 * i + producer, producer * 100 + i));
                        m.setStringProperty("JMSXGroupID", "k" + producer + "-" + (i % 3));
                        m.setIntProperty("producer", producer);
                        m.setIntProperty("i", i);
                        mp.send(m);
                    }
                    return null;
                }));
            }
            for (int k = 0; k < 2; k++) {
                Connection c = node.factory().createConnection();
                connections.add(c);
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                s.createConsumer(s.createQueue(queue)).setMessageListener(m -> {
                    try {
                        int producer = m.getIntProperty("producer");
                        int i = m.getIntProperty("i");
                        byte[] body = m.getBody(byte[].class);
                        if (!Arrays.equals(pattern(MIB + 1000 * i + producer, producer * 100 + i), body)) {
                            bad.add(producer + "/" + i);
                        }
                        byKey.computeIfAbsent(
                                        m.getStringProperty("JMSXGroupID"),
                                        x -> java.util.Collections.synchronizedList(new java.util.ArrayList<>()))
                                .add(i);
                        received.incrementAndGet();
                    } catch (Exception e) {
                        bad.add(e.toString());
                    }
                });
                c.start();
            }
            start.countDown(); // producers and consumers at the same moment
            for (java.util.concurrent.Future<?> f : sends) {
                f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> received.get() >= producers * perProducer);
        } finally {
            senders.shutdownNow();
            for (Connection c : connections) {
                c.close();
            }
        }
        assertEquals(java.util.List.of(), bad, "bodies that came changed");
        assertEquals(producers * perProducer, received.get(), "each once");
        byKey.forEach((key, order) -> assertEquals(order.stream().sorted().toList(), order, "order of " + key));
        await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
    }

    @Test
    void aLargeTextMessageGoesTheSameWay() throws Exception {
        String text = "é".repeat(2 * MIB) + "end";
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue("text")).send(s.createTextMessage(text));
            assertEquals(1, bodyFiles());
            TextMessage got =
                    (TextMessage) s.createConsumer(s.createQueue("text")).receive(10_000);
            assertEquals(text, got.getText());
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
    }

    /**
     * A stream message saved to a file by one consumer is sent on from that file by a stream and read
     * value by value by the next: the values arrive as first written.
     */
    @Test
    void aStreamMessageSavedToAFileIsSentOnFromItAndReadValueByValue() throws Exception {
        byte[] blob = pattern(3 * MIB, 5);
        Path saved = node.dataDir().resolveSibling("saved-stream-message.bin");
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            jakarta.jms.StreamMessage first = s.createStreamMessage();
            first.writeString("invoice-12");
            first.writeBytes(blob);
            first.writeInt(12);
            s.createProducer(s.createQueue("values")).send(first);
            assertEquals(1, bodyFiles(), "over largeMessageBytes: a large message");

            jakarta.jms.StreamMessage got = (jakarta.jms.StreamMessage)
                    s.createConsumer(s.createQueue("values")).receive(10_000);
            try (java.io.OutputStream out = Files.newOutputStream(saved)) {
                got.setObjectProperty(PartitaProperties.SAVE_STREAM, out);
            }

            jakarta.jms.StreamMessage again = s.createStreamMessage();
            try (java.io.InputStream in = Files.newInputStream(saved)) {
                again.setObjectProperty(PartitaProperties.INPUT_STREAM, in);
                s.createProducer(s.createQueue("values-on")).send(again);
            }
            jakarta.jms.StreamMessage next = (jakarta.jms.StreamMessage)
                    s.createConsumer(s.createQueue("values-on")).receive(10_000);
            assertEquals("invoice-12", next.readString());
            assertArrayEquals(blob, (byte[]) next.readObject());
            assertEquals(12, next.readInt());
        } finally {
            Files.deleteIfExists(saved);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
    }

    @Test
    void aRolledBackSendLeavesNoBodyAndACommittedOneIsDelivered() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = tx.createProducer(tx.createQueue("tx"));
            BytesMessage m = tx.createBytesMessage();
            m.writeBytes(pattern(3 * MIB, 1));
            p.send(m);
            assertEquals(1, bodyFiles());
            tx.rollback();
            await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);

            BytesMessage kept = tx.createBytesMessage();
            kept.writeBytes(pattern(3 * MIB, 2));
            p.send(kept);
            tx.commit();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            BytesMessage got =
                    (BytesMessage) s.createConsumer(s.createQueue("tx")).receive(10_000);
            assertArrayEquals(pattern(3 * MIB, 2), got.getBody(byte[].class));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
    }

    /**
     * XA branches that send large messages: one rolled back before it was prepared and one rolled
     * back after it leave no body behind; a committed one delivers its message whole.
     */
    @Test
    void anXaBranchRolledBackBeforeOrAfterPrepareLeavesNoBody() throws Exception {
        byte[] body = pattern(3 * MIB, 9);
        try (jakarta.jms.XAConnection xc = new org.partita.jms.client.PartitaXAConnectionFactory(
                        node.node().url())
                .createXAConnection()) {
            jakarta.jms.XASession xs = xc.createXASession();
            javax.transaction.xa.XAResource xa = xs.getXAResource();
            MessageProducer p = xs.getSession().createProducer(xs.getSession().createQueue("xa-big"));
            for (String outcome : List.of("rolled back", "prepared, rolled back", "committed")) {
                javax.transaction.xa.Xid x = TestXid.of(outcome);
                xa.start(x, javax.transaction.xa.XAResource.TMNOFLAGS);
                BytesMessage m = xs.getSession().createBytesMessage();
                m.writeBytes(body);
                m.setStringProperty("outcome", outcome);
                p.send(m);
                xa.end(x, javax.transaction.xa.XAResource.TMSUCCESS);
                assertEquals(1, bodyFiles(), outcome + ": the body waits for the branch");
                if (outcome.equals("committed")) {
                    xa.commit(x, true);
                } else {
                    if (outcome.startsWith("prepared")) {
                        assertEquals(javax.transaction.xa.XAResource.XA_OK, xa.prepare(x));
                    }
                    xa.rollback(x);
                    await().atMost(Duration.ofSeconds(10)).until(() -> bodyFiles() == 0);
                }
            }
        }
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            BytesMessage got =
                    (BytesMessage) s.createConsumer(s.createQueue("xa-big")).receive(10_000);
            assertEquals("committed", got.getStringProperty("outcome"), "only the committed branch's message");
            assertArrayEquals(body, got.getBody(byte[].class));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
    }

    /**
     * A branch prepared with a large send, the node restarted (the branch read back from the store),
     * then rolled back by its transaction manager: the body goes at once, as before a restart.
     */
    @Test
    void aPreparedBranchReadBackAfterARestartAndRolledBackLeavesNoBody() throws Exception {
        javax.transaction.xa.Xid x = TestXid.of("prepared across a restart");
        try (jakarta.jms.XAConnection xc = new org.partita.jms.client.PartitaXAConnectionFactory(
                        node.node().url())
                .createXAConnection()) {
            jakarta.jms.XASession xs = xc.createXASession();
            javax.transaction.xa.XAResource xa = xs.getXAResource();
            xa.start(x, javax.transaction.xa.XAResource.TMNOFLAGS);
            BytesMessage m = xs.getSession().createBytesMessage();
            m.writeBytes(pattern(3 * MIB, 4));
            xs.getSession()
                    .createProducer(xs.getSession().createQueue("xa-big-restart"))
                    .send(m);
            xa.end(x, javax.transaction.xa.XAResource.TMSUCCESS);
            assertEquals(javax.transaction.xa.XAResource.XA_OK, xa.prepare(x));
        }
        node.restart();
        assertEquals(1, bodyFiles(), "the prepared branch's body is kept through the restart");
        try (jakarta.jms.XAConnection xc = new org.partita.jms.client.PartitaXAConnectionFactory(
                        node.node().url())
                .createXAConnection()) {
            xc.createXASession().getXAResource().rollback(x);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> bodyFiles() == 0);
    }

    @Test
    void aLargeMessageNoQueueTakesLeavesNoBody() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            BytesMessage m = s.createBytesMessage();
            m.writeBytes(pattern(2 * MIB, 5));
            s.createProducer(s.createTopic("nobody.listens")).send(m); // a topic without subscriptions
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            BytesMessage t = tx.createBytesMessage();
            t.writeBytes(pattern(2 * MIB, 6));
            tx.createProducer(tx.createTopic("nobody.listens")).send(t);
            tx.commit();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
    }

    @Test
    void aLargeMessageIsKeptThroughARestartAndABodyNeverSentIsDeletedAtStart() throws Exception {
        byte[] body = pattern(5 * MIB, 9);
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            BytesMessage m = s.createBytesMessage();
            m.writeBytes(body);
            s.createProducer(s.createQueue("kept")).send(m);
        }
        // what a node killed in the middle of an upload leaves: a body no message names
        Files.write(bodies().resolve("999999.body"), new byte[1000]);
        node.restart();
        assertEquals(1, bodyFiles(), "the orphan went at start, the sent message's body stayed");
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            BytesMessage got =
                    (BytesMessage) s.createConsumer(s.createQueue("kept")).receive(10_000);
            assertNotNull(got, "kept through the restart");
            assertArrayEquals(body, got.getBody(byte[].class));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
    }

    @Test
    void aDeadLetteredLargeMessageKeepsItsBody() throws Exception {
        byte[] body = pattern(2 * MIB, 4);
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            BytesMessage m = s.createBytesMessage();
            m.writeBytes(body);
            s.createProducer(s.createQueue("poison?maxDeliveryAttempts=2")).send(m);
            s.commit();
            MessageConsumer consumer = s.createConsumer(s.createQueue("poison?maxDeliveryAttempts=2"));
            for (int i = 0; i < 2; i++) {
                assertNotNull(consumer.receive(10_000), "delivery " + (i + 1));
                s.rollback();
            }
            consumer.close();
            BytesMessage dead =
                    (BytesMessage) s.createConsumer(s.createQueue("DLQ")).receive(10_000);
            assertNotNull(dead, "dead-lettered");
            assertArrayEquals(body, dead.getBody(byte[].class));
            s.commit();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> bodyFiles() == 0);
    }

    /** A stream of {@code length} bytes made up as it is read, with their digest. */
    static final class Generated extends InputStream {
        private final long length;
        private final int seed;
        private long position;
        volatile boolean closed;

        Generated(long length, int seed) {
            this.length = length;
            this.seed = seed;
        }

        private byte at(long i) {
            return (byte) (i * 31 + seed + (i >>> 13));
        }

        @Override
        public int read() {
            return position < length ? at(position++) & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position >= length) {
                return -1;
            }
            int n = (int) Math.min(len, length - position);
            for (int i = 0; i < n; i++) {
                b[off + i] = at(position++);
            }
            return n;
        }

        @Override
        public void close() {
            closed = true;
        }

        byte[] digest() throws IOException, NoSuchAlgorithmException {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = read(buf, 0, buf.length)) > 0) {
                d.update(buf, 0, n);
            }
            return d.digest();
        }
    }

    /** Counts and digests what is written to it. */
    static final class Digesting extends OutputStream {
        final MessageDigest digest;
        long count;

        Digesting() throws NoSuchAlgorithmException {
            digest = MessageDigest.getInstance("SHA-256");
        }

        @Override
        public void write(int b) {
            digest.update((byte) b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            digest.update(b, off, len);
            count += len;
        }
    }
}
