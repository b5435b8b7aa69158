package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.Protocol;
import org.partita.protocol.WireMessage;

/**
 * One connection as its client sees it: the frames it writes to the node, already decoded, and the
 * frames the node answers, read in the order the node wrote them. Request, session and consumer ids
 * are counted here, as a client counts them.
 */
final class TestClient {
    private final TestChannel channel;
    private final TestEventLoop loop;
    private int requestIds;
    private int sessionIds;
    private int consumerIds;
    private long sendCredit;
    private int messageIds;
    /** Deliveries that came ahead of the answer a helper waited for, kept for the test in their order. */
    private final Queue<Frame> early = new ArrayDeque<>();

    TestClient(TestChannel channel, TestEventLoop loop) {
        this.channel = channel;
        this.loop = loop;
    }

    TestChannel channel() {
        return channel;
    }

    int requestId() {
        return ++requestIds;
    }

    /** Frames as the client sends them, handled before this returns (what they start elsewhere runs later). */
    void write(Frame... frames) {
        channel.writeInbound((Object[]) frames);
    }

    /** The next frame the node wrote to this connection, waited for. */
    Frame nextFrame() {
        loop.runUntil(() -> !channel.outboundMessages().isEmpty(), "frame from the node");
        return channel.readOutbound();
    }

    /** The next frame other than SEND_CREDIT, which the node writes as it pleases; their bytes are added up. */
    Frame next() {
        return early.isEmpty() ? fromNode() : early.poll();
    }

    private Frame fromNode() {
        while (true) {
            Frame f = nextFrame();
            if (f instanceof Frame.SendCredit c) {
                sendCredit += c.bytes();
            } else {
                return f;
            }
        }
    }

    <T extends Frame> T next(Class<T> type) {
        return assertInstanceOf(type, next());
    }

    /**
     * The OK to {@code requestId} arrives. A delivery may come ahead of it (a queue's thread wrote it
     * first, as for a message that was waiting when its consumer attached): kept for {@link #next}, in order.
     */
    void ok(int requestId) {
        Frame answer = fromNode();
        List<Frame> delivered = new ArrayList<>();
        while (answer instanceof Frame.Deliver || answer instanceof Frame.Partitions) {
            delivered.add(answer);
            answer = fromNode();
        }
        assertEquals(new Frame.Ok(requestId), answer);
        early.addAll(delivered);
    }

    /** The next frame is an ERROR answering {@code requestId} with {@code code}; returns its message. */
    String error(int requestId, ErrorCode code) {
        Frame.Error e = next(Frame.Error.class);
        assertEquals(requestId, e.requestId(), () -> "answers another request: " + e);
        assertEquals(code, e.code(), () -> "another code: " + e);
        return e.message();
    }

    /** The send credit the node granted so far, in bytes. */
    long sendCredit() {
        return sendCredit;
    }

    /** Whether the connection is still open, once the loop ran what it had to do. */
    boolean isOpen() {
        loop.runPending();
        return channel.isOpen();
    }

    /** The connection is open, and the loop ran what it had to: answered in order behind what came before. */
    void ping() {
        int id = requestId();
        write(new Frame.Ping(id));
        ok(id);
    }

    Frame.HelloOk hello() {
        return hello(null, null, null);
    }

    Frame.HelloOk hello(String user, String password, String clientId) {
        int id = requestId();
        write(new Frame.Hello(id, Protocol.VERSION, user, password, clientId));
        assertEquals(new Frame.Greeting(id), next());
        return next(Frame.HelloOk.class);
    }

    /** Opens a session; returns its id. */
    int session(boolean transacted) {
        int id = ++sessionIds;
        int request = requestId();
        write(new Frame.SessionOpen(request, id, transacted));
        ok(request);
        return id;
    }

    /** Sends a persistent text message and waits for its confirmation. */
    void send(int session, String destination, String text) {
        int request = requestId();
        write(new Frame.Send(request, session, message(destination, text, true)));
        ok(request);
    }

    /** Opens a consumer with {@code credit}; returns its id once the node answered. */
    int consumer(int session, String destination, int credit) {
        return consumer(session, destination, credit, 0);
    }

    /** Opens a consumer with {@code credit} and a byte window (0: none); returns its id once the node answered. */
    int consumer(int session, String destination, int credit, long windowBytes) {
        int id = ++consumerIds;
        int request = requestId();
        write(new Frame.ConsumerOpen(request, session, id, destination, null, null, 0, credit, windowBytes));
        ok(request);
        return id;
    }

    /** The texts of the messages a browse of {@code queue} finds, from every chunk of its answer. */
    List<String> browse(String queue) {
        int request = requestId();
        write(new Frame.Browse(request, queue, null));
        List<String> texts = new ArrayList<>();
        Frame.BrowseChunk chunk;
        do {
            chunk = next(Frame.BrowseChunk.class);
            assertEquals(request, chunk.requestId());
            chunk.messages().forEach(m -> texts.add(text(m)));
        } while (!chunk.last());
        return texts;
    }

    /** An encoded text message to {@code destination} ({@code queue:name}, {@code topic:name}). */
    byte[] message(String destination, String text, boolean persistent) {
        return MessageCodec.encode(new WireMessage(
                "ID:test-" + ++messageIds,
                System.currentTimeMillis(),
                null,
                null,
                destination,
                null,
                persistent ? WireMessage.PERSISTENT : WireMessage.NON_PERSISTENT,
                4,
                0,
                0,
                Map.of(),
                WireMessage.BODY_TEXT,
                text.getBytes(StandardCharsets.UTF_8)));
    }

    static String text(byte[] message) {
        return new String(MessageCodec.decode(message).body(), StandardCharsets.UTF_8);
    }

    /** The socket drops: the node cleans up after the connection. */
    void disconnect() {
        channel.close();
        loop.runPending();
    }
}
