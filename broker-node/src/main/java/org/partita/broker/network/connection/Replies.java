package org.partita.broker.network.connection;

import static org.partita.broker.network.connection.ConnectionLog.EVENTS;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.concurrent.CompletableFuture;
import org.partita.broker.network.flow.InOrderWrites;
import org.partita.broker.network.flow.SendWindow;
import org.partita.broker.process.FatalErrors;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;

/**
 * Every answer a connection gives to its client's requests, written here and nowhere else, by one
 * rule for the order in which they reach the client:
 *
 * <ul>
 *   <li><b>{@code OK} goes after every frame queued to the connection before it</b>, whichever thread
 *       queued that frame or writes the {@code OK} (see {@link InOrderWrites}). An {@code OK} often
 *       vouches for deliveries: a DRAIN's follows every DELIVER its credit allowed, a CONSUMER_OPEN's
 *       or CONSUMER_UPDATE's follows what the queue did before it. Written at once on the
 *       connection's own thread, it would overtake a DELIVER a queue's thread had just queued (a
 *       receiveNoWait with prefetch 0 then misses its message).</li>
 *   <li><b>Every other answer is written at once</b>: ERROR, REQUEST_FAILED and the typed answers
 *       (HELLO_OK, CREATED, RECOVERED, ADMIN_REPLY, BROWSE_CHUNK, XA_RESULT, XA_RECOVERED). A refused
 *       SEND's ERROR must reach the client ahead of the SEND_CREDIT that gives the refused bytes back
 *       ({@link SendWindow} writes at once too), or the client goes on sending past a transaction's
 *       bound before it hears of the refusal. The typed answers vouch for no delivery (RECOVERED
 *       carries its fence instead).</li>
 *   <li><b>An answer that ends the connection is written at once, and the connection closes once it
 *       is written</b>: a refused HELLO, a connection-level ERROR with request id 0, the OK to CLOSE.</li>
 * </ul>
 *
 * <p>"At once" makes a difference on the connection's own event loop only: there an answer written at
 * once goes ahead of what other threads queued a moment before, where an OK waits behind it; from
 * another thread, every frame is queued in the order of the writes. Answers to different requests
 * may therefore cross (an ERROR overtake an earlier request's OK): clients match answers by request
 * id, never by order. A request with id 0 asks for no answer: its success is silent, and its failure
 * is told with REQUEST_FAILED rather than ERROR, which leaves the connection open and reaches the
 * client's ExceptionListener.
 */
final class Replies {
    private final Channel channel;

    Replies(Channel channel) {
        this.channel = channel;
    }

    /** The request succeeded: {@code OK}, in order behind what was queued before; nothing for request id 0. */
    void ok(int requestId) {
        if (requestId != 0) {
            InOrderWrites.writeAndFlush(channel, new Frame.Ok(requestId));
        }
    }

    /** A typed answer, written at once; a failed write is an error of the connection. */
    void answer(Frame answer) {
        channel.writeAndFlush(answer, channel.voidPromise());
    }

    /**
     * The last BROWSE_CHUNK of a browse: written at once like {@link #answer}, but a write that fails
     * (a chunk the encoder refuses as larger than the frame size) is dropped without closing the
     * connection, where {@link #answer} would close it.
     */
    void lastChunk(Frame.BrowseChunk chunk) {
        channel.writeAndFlush(chunk);
    }

    /**
     * The request failed and nothing was done: {@code ERROR}, written at once. A request that asked
     * for no answer (request id 0, such as a non-persistent send) is told with REQUEST_FAILED, so that
     * the client's ExceptionListener hears of it.
     */
    void error(Frame request, ErrorCode code, String message) {
        if (request.requestId() == 0) {
            EVENTS.info(
                    "message.dropped",
                    "{} without confirmation from {} dropped: {} {}",
                    request.type(),
                    channel.remoteAddress(),
                    code,
                    message);
            channel.writeAndFlush(new Frame.RequestFailed(request.type().code(), code, message), channel.voidPromise());
            return;
        }
        channel.writeAndFlush(new Frame.Error(request.requestId(), code, message), channel.voidPromise());
    }

    /**
     * Answers the request once {@code done} completes: {@code OK}, or the error its failure means. A
     * storage fault or a full queue is a resource the client may wait for (RESOURCE_EXHAUSTED), not a
     * bug; for a COMMIT either means the transaction was rolled back.
     */
    void whenDone(Frame request, CompletableFuture<Void> done) {
        done.whenComplete((v, t) -> {
            if (t == null) {
                ok(request.requestId());
                return;
            }
            FatalErrors.check(t);
            Throwable cause = FailureCodes.unwrap(t);
            if (request instanceof Frame.Commit && FailureCodes.rollsBackACommit(cause)) {
                error(
                        request,
                        ErrorCode.TRANSACTION_ROLLED_BACK,
                        cause.getMessage() + "; the transaction was rolled back");
            } else {
                // a send held while a clustered queue's layout changed may find its queue full when it goes on
                error(request, FailureCodes.of(cause), cause.getMessage());
            }
        });
    }

    /** Answers at once, then closes the connection once the answer is written (the OK to CLOSE). */
    void answerThenClose(Frame answer) {
        channel.writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
    }

    /** Refuses a request and closes the connection (a refused HELLO). */
    void failRequest(int requestId, ErrorCode code, String message) {
        answerThenClose(new Frame.Error(requestId, code, message));
    }

    /** A connection-level error: ERROR with request id 0, then the connection closes. */
    void fail(ErrorCode code, String message) {
        EVENTS.info("connection.refused", "closing connection {}: {} {}", channel.remoteAddress(), code, message);
        failRequest(0, code, message);
    }
}
