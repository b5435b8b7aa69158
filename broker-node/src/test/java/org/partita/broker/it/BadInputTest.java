package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameCodec;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.Protocol;
import org.partita.protocol.WireMessage;

/**
 * README: "A client that sends a malformed or oversized frame gets an error frame and is
 * disconnected; other clients and stored messages are not affected." Raw sockets speak the wire
 * protocol of docs/protocol.md; client A is a healthy JMS connection that must not notice anything.
 */
@Tag("slow")
class BadInputTest {
    private static final int MAX_FRAME = 64 * 1024;
    private static final int STORED = 20;

    @TempDir
    Path tmp;

    private PartitaNode node;
    private Connection a;
    private Session aSession;
    private MessageProducer aProducer;
    private MessageConsumer aConsumer;
    private final List<JMSException> aFailures = new CopyOnWriteArrayList<>();
    private int pings;

    @BeforeEach
    void startNodeAndClientA() throws Exception {
        node = PartitaNode.start(NodeConfig.defaults()
                .withPort(0)
                .withDataDir(tmp.resolve("data"))
                .withMaxFrameSize(MAX_FRAME));
        a = factory().createConnection();
        a.setExceptionListener(aFailures::add);
        aSession = a.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = aSession.createQueue("q");
        aProducer = aSession.createProducer(q);
        aConsumer = aSession.createConsumer(q);
        a.start();
        MessageProducer stored = aSession.createProducer(aSession.createQueue("stored"));
        for (int i = 0; i < STORED; i++) {
            BytesMessage m = aSession.createBytesMessage();
            m.writeBytes(storedBody(i));
            m.setIntProperty("seq", i);
            stored.send(m);
        }
        assertClientAStillWorks();
    }

    @AfterEach
    void stop() {
        CrashRecoveryTest.closeQuietly(a);
        if (node != null) {
            node.close();
        }
    }

    private PartitaConnectionFactory factory() {
        return new PartitaConnectionFactory(node.url());
    }

    private static byte[] storedBody(int i) {
        byte[] b = new byte[1000 + i];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (k * 31 + i);
        }
        return b;
    }

    // ---- (a) garbage

    @Test
    void garbageBytesGetMalformedFrameAndTheConnectionIsClosed() throws Exception {
        byte[][] garbage = {
            {0, 0, 0, 8, (byte) 0xFF, 1, 2, 3, 4, 5, 6, 7}, // unknown frame type 255
            {0, 0, 0, 3, 1, 0, 0}, // HELLO cut short
            {0, 0, 0, 0}, // empty frame
            {0, 0, 0, 6, 21, 0, 0, 0, 1, 0x42}, // CLOSE with a trailing byte
        };
        for (byte[] g : garbage) {
            try (Raw raw = new Raw(node.port())) {
                raw.sendRaw(g);
                Frame.Error e = raw.readError();
                assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), "answer to " + Arrays.toString(g) + ": " + e);
                assertEquals(0, e.requestId(), "a connection-level error");
                raw.assertClosedByNode();
            }
        }
        // the same after a successful handshake: SESSION_OPEN whose boolean holds 7
        try (Raw raw = new Raw(node.port())) {
            raw.hello();
            raw.sendRaw(new byte[] {0, 0, 0, 10, 5, 0, 0, 0, 2, 0, 0, 0, 1, 7});
            Frame.Error e = raw.readError();
            assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), e.toString());
            raw.assertClosedByNode();
        }
        assertClientAStillWorks();
        assertStoredMessagesIntact();
    }

    @Test
    void sendWhoseMessageBlobDoesNotDecodeClosesTheConnectionAndStoresNothing() throws Exception {
        try (Raw raw = new Raw(node.port())) {
            raw.hello();
            raw.send(new Frame.SessionOpen(2, 1, false));
            assertEquals(new Frame.Ok(2), raw.read());
            byte[] blob = MessageCodec.encode(wire("queue:q", "not-for-anyone".getBytes(StandardCharsets.UTF_8)));
            blob[0] = 9; // layout version 9 does not exist
            raw.send(new Frame.Send(3, 1, blob));
            Frame answer = raw.read();
            // docs/protocol.md: "A message blob that MessageCodec rejects is a protocol violation, like a
            // malformed frame [...] The node answers ERROR{0, MALFORMED_FRAME} and closes the connection."
            Frame.Error e = assertInstanceOf(Frame.Error.class, answer);
            assertClientAStillWorks();
            assertStoredMessagesIntact();
            assertAll(
                    () -> assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), e.toString()),
                    () -> assertEquals(0, e.requestId(), "a connection-level error, not an answer to the SEND: " + e),
                    raw::assertClosedByNode);
        }
    }

    // ---- (b) oversized

    @Test
    void lengthPrefixOverTheMaximumGetsFrameTooLargeAndTheConnectionIsClosed() throws Exception {
        for (int prefix : new int[] {MAX_FRAME + 1, 0xFFFFFFFF}) {
            try (Raw raw = new Raw(node.port())) {
                raw.hello();
                raw.sendRaw(
                        ByteBuffer.allocate(8).putInt(prefix).putInt(0x07000000).array());
                Frame.Error e = raw.readError();
                assertEquals(
                        ErrorCode.FRAME_TOO_LARGE,
                        e.code(),
                        "length prefix " + Integer.toUnsignedString(prefix) + ": " + e);
                assertEquals(0, e.requestId());
                raw.assertClosedByNode();
            }
        }
        assertClientAStillWorks();
        assertStoredMessagesIntact();
    }

    @Test
    void aSendFrameOfExactlyTheMaximumSizeIsAcceptedAndItsMessageCanBeConsumed() throws Exception {
        byte[] empty = MessageCodec.encode(wire("queue:edge", new byte[0]));
        int sendOverhead = 1 + 4 + 4 + 4; // type, requestId, sessionId, blob length
        byte[] body = new byte[MAX_FRAME - sendOverhead - empty.length];
        Arrays.fill(body, (byte) 0x5A);
        byte[] blob = MessageCodec.encode(wire("queue:edge", body));
        assertEquals(MAX_FRAME, sendOverhead + blob.length);
        Frame answer;
        try (Raw raw = new Raw(node.port())) {
            raw.hello();
            raw.send(new Frame.SessionOpen(2, 1, false));
            assertEquals(new Frame.Ok(2), raw.read());
            raw.send(new Frame.Send(3, 1, blob)); // docs/protocol.md: "A frame of exactly maxFrameSize is accepted."
            answer = raw.read();
        }
        // Whatever the node answers, it must never keep a message it cannot deliver: DELIVER carries
        // 8 more header bytes than SEND, so this message's DELIVER frame is over the limit.
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("edge"));
            if (answer instanceof Frame.Error refused) {
                assertEquals(3, refused.requestId(), "the refusal answers the SEND: " + refused);
                Absence.assertNothingAhead(s, s.createQueue("edge"), consumer, "a refused message is not stored");
            } else {
                assertEquals(new Frame.Ok(3), answer);
                Message m = assertDoesNotThrow(
                        () -> consumer.receive(5000), "the node accepted the message, so a consumer can receive it");
                assertNotNull(m, "the message stored at the frame limit was never delivered");
                assertArrayEquals(body, m.getBody(byte[].class));
            }
        }
        assertClientAStillWorks();
        assertStoredMessagesIntact();
    }

    @Test
    void jmsMessageLargerThanTheNodesMaximumFailsTheSendWithAClearJMSException() throws Exception {
        try (Connection b = factory().createConnection()) {
            Session s = b.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("big"));
            BytesMessage big = s.createBytesMessage();
            big.writeBytes(new byte[100 * 1024]);
            JMSException e = assertThrows(JMSException.class, () -> p.send(big));
            assertTrue(e.getMessage().contains("maximum frame size"), "message names the limit: " + e.getMessage());
        }
        assertClientAStillWorks();
        assertStoredMessagesIntact();
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Absence.assertNothingAhead(
                    s,
                    s.createQueue("big"),
                    s.createConsumer(s.createQueue("big")),
                    "nothing of the oversized message was stored");
        }
    }

    @Test
    void jmsMessageLargerThanTheNodesMaximumLeavesTheSendingConnectionUsable() throws Exception {
        // docs/protocol.md: "The node states its limit in HELLO_OK.maxFrameSize. After the handshake, the
        // client does not send frames larger than the smaller of the two limits" and a frame the encoder
        // refuses "stays on the sending side, the connection stays open, and the caller sees the error".
        List<JMSException> bFailures = new CopyOnWriteArrayList<>();
        try (Connection b = factory().createConnection()) {
            b.setExceptionListener(bFailures::add);
            b.start();
            Session s = b.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("big");
            MessageProducer p = s.createProducer(q);
            BytesMessage big = s.createBytesMessage();
            big.writeBytes(new byte[100 * 1024]);
            assertThrows(JMSException.class, () -> p.send(big));

            TextMessage m = assertDoesNotThrow(
                    () -> {
                        p.send(s.createTextMessage("small"));
                        return (TextMessage) s.createConsumer(q).receive(5000);
                    },
                    "connection B still works after its oversized send was refused");
            assertNotNull(m);
            assertEquals("small", m.getText());
            assertTrue(bFailures.isEmpty(), "connection B was not lost: " + bFailures);
        }
        assertClientAStillWorks();
    }

    /**
     * A send refused before it leaves (too large for a frame) gives its send credit back: the node never
     * counts it, and four of them (past the 256 KiB producer window) made every later send on the
     * connection wait 60 s for credit and fail with "the node is short of memory".
     */
    @Test
    void refusedOversizedSendsGiveTheirCreditBackSoTheNextSendGoesAtOnce() throws Exception {
        try (Connection b = factory().createConnection()) {
            b.start();
            Session s = b.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("after-oversized");
            MessageProducer p = s.createProducer(q);
            for (int i = 0; i < 4; i++) {
                BytesMessage big = s.createBytesMessage();
                big.writeBytes(new byte[100 * 1024]);
                JMSException e = assertThrows(jakarta.jms.ResourceAllocationException.class, () -> p.send(big));
                assertEquals(ErrorCode.FRAME_TOO_LARGE.name(), e.getErrorCode(), e.getMessage());
            }
            assertTimeoutPreemptively(
                    java.time.Duration.ofSeconds(10),
                    () -> p.send(s.createTextMessage("next")),
                    "the next send does not wait for credit");
            assertEquals("next", ((TextMessage) s.createConsumer(q).receive(5000)).getText());
        }
    }

    @Test
    void clientsOwnFrameLimitRefusesLocallyAndKeepsTheConnection() throws Exception {
        List<JMSException> bFailures = new CopyOnWriteArrayList<>();
        try (Connection b = new PartitaConnectionFactory(node.url() + "?maxFrameSize=4096").createConnection()) {
            b.setExceptionListener(bFailures::add);
            b.start();
            Session s = b.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("local-limit");
            MessageProducer p = s.createProducer(q);
            BytesMessage big = s.createBytesMessage();
            big.writeBytes(new byte[10 * 1024]);
            JMSException e = assertThrows(JMSException.class, () -> p.send(big));
            assertTrue(e.getMessage().contains("maximum frame size"), "message names the limit: " + e.getMessage());

            p.send(s.createTextMessage("small"));
            TextMessage m = (TextMessage) s.createConsumer(q).receive(5000);
            assertNotNull(m);
            assertEquals("small", m.getText(), "the refused message was not sent");
            assertNull(s.createConsumer(q).receiveNoWait());
            assertTrue(bFailures.isEmpty(), "connection B was not lost: " + bFailures);
            assertClientAStillWorks();
            // docs/protocol.md, error codes: "The sender's own FrameEncoder also refuses locally with this code."
            assertAll(
                    () -> assertEquals(
                            ErrorCode.FRAME_TOO_LARGE.name(), e.getErrorCode(), "error code of: " + e.getMessage()),
                    () -> assertTrue(
                            !e.getMessage().contains("io.netty"),
                            "the message speaks of frames, not of Netty: " + e.getMessage()));
        }
    }

    // ---- (c) before HELLO

    @Test
    void pingBeforeHelloGetsAnErrorAndTheConnectionIsClosed() throws Exception {
        try (Raw raw = new Raw(node.port())) {
            raw.send(new Frame.Ping(5));
            Frame.Error e = raw.readError();
            assertEquals(ErrorCode.ILLEGAL_STATE, e.code(), e.toString());
            assertEquals(0, e.requestId());
            raw.assertClosedByNode();
        }
        assertClientAStillWorks();
        assertStoredMessagesIntact();
    }

    @Test
    void sendBeforeHelloIsRefusedAndNothingIsStored() throws Exception {
        try (Raw raw = new Raw(node.port())) {
            raw.send(new Frame.Send(
                    5, 1, MessageCodec.encode(wire("queue:q", "sneaky".getBytes(StandardCharsets.UTF_8)))));
            Frame.Error e = raw.readError();
            assertEquals(ErrorCode.ILLEGAL_STATE, e.code(), e.toString());
            raw.assertClosedByNode();
        }
        assertClientAStillWorks(); // A's next message is its own ping, not "sneaky"
        Absence.awaitQueueHoldsNothing(a, "q", "the refused send stored nothing");
        assertStoredMessagesIntact();
    }

    // ---- (d) wrong version

    @Test
    void helloWithAnotherProtocolVersionGetsUnsupportedVersionAndIsClosed() throws Exception {
        Frame.Error e;
        try (Raw raw = new Raw(node.port())) {
            raw.send(new Frame.Hello(7, Protocol.VERSION + 98, null, null, null));
            e = raw.readError();
            assertEquals(ErrorCode.UNSUPPORTED_VERSION, e.code(), e.toString());
            assertTrue(
                    e.message().contains(Integer.toString(Protocol.VERSION + 98)), "names the version: " + e.message());
            raw.assertClosedByNode();
        }
        assertClientAStillWorks();
        assertStoredMessagesIntact();
        // docs/protocol.md, HELLO sent: "On failure it sends ERROR with the HELLO's requestId and closes."
        assertEquals(7, e.requestId(), "the refusal answers the HELLO");
    }

    // ---- helpers

    private void assertClientAStillWorks() throws JMSException {
        String text = "ping-" + (++pings);
        aProducer.send(aSession.createTextMessage(text));
        Message m = aConsumer.receive(10_000);
        assertNotNull(m, "client A got its own message " + text);
        assertEquals(text, ((TextMessage) m).getText());
        assertTrue(aFailures.isEmpty(), "client A's connection was not touched: " + aFailures);
    }

    private void assertStoredMessagesIntact() throws JMSException {
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("stored"));
            for (int i = 0; i < STORED; i++) {
                BytesMessage m = (BytesMessage) consumer.receive(10_000);
                assertNotNull(m, "stored message " + i);
                assertEquals(i, m.getIntProperty("seq"));
                byte[] body = new byte[(int) m.getBodyLength()];
                m.readBytes(body);
                assertArrayEquals(storedBody(i), body, "body of stored message " + i);
            }
            Absence.assertNothingAhead(s, s.createQueue("stored"), consumer, "nothing beyond the stored messages");
        }
    }

    static WireMessage wire(String destination, byte[] body) {
        return new WireMessage(
                "ID:raw-" + System.nanoTime(),
                System.currentTimeMillis(),
                null,
                null,
                destination,
                null,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                Map.of(),
                WireMessage.BODY_BYTES,
                body);
    }

    /** A TCP connection that writes and reads frames by hand. */
    static final class Raw implements AutoCloseable {
        private final Socket socket;
        private final DataInputStream in;
        private final DataOutputStream out;

        Raw(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(5_000);
            in = new DataInputStream(socket.getInputStream());
            out = new DataOutputStream(socket.getOutputStream());
        }

        Frame.HelloOk hello() throws IOException {
            send(new Frame.Hello(1, Protocol.OLDEST_VERSION, null, null, null)); // no SEND_CREDIT among the answers
            return assertInstanceOf(Frame.HelloOk.class, read());
        }

        void send(Frame f) throws IOException {
            ByteBuf buf = Unpooled.buffer();
            try {
                FrameCodec.encode(f, buf);
                byte[] body = new byte[buf.readableBytes()];
                buf.readBytes(body);
                out.writeInt(body.length);
                out.write(body);
                out.flush();
            } finally {
                buf.release();
            }
        }

        java.io.InputStream input() {
            return in;
        }

        void sendRaw(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        Frame read() throws IOException {
            int length = in.readInt();
            if (length < 0 || length > Protocol.DEFAULT_MAX_FRAME_SIZE) {
                fail("the node sent a frame length of " + length);
            }
            byte[] body = new byte[length];
            in.readFully(body);
            return FrameCodec.decode(Unpooled.wrappedBuffer(body));
        }

        Frame.Error readError() throws IOException {
            return assertInstanceOf(Frame.Error.class, read());
        }

        /** The node closed its end: end of stream (or a reset) within the socket timeout. */
        void assertClosedByNode() throws IOException {
            try {
                for (int i = 0; i < 1_000_000; i++) {
                    if (in.read() < 0) {
                        return;
                    }
                }
                fail("the node kept sending instead of closing the connection");
            } catch (SocketTimeoutException e) {
                fail("the node did not close the connection within 5 s");
            } catch (SocketException reset) {
                // closed with a reset: closed all the same
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
