package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.broker.store.StoreUnavailableException;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameType;

/**
 * The rule by which a connection's answers are ordered ({@link Replies}): an OK goes behind what
 * other threads queued to the connection before it, every other answer at once, an answer that ends
 * the connection closes it once written; a request with id 0 hears only of its failure.
 */
class RepliesTest {

    @Test
    void anOkGoesBehindADeliveryAnotherThreadQueuedWhileAnErrorGoesAtOnce() throws Exception {
        try (Connection c = new Connection()) {
            Frame.Deliver queued = c.deliveryQueuedByAnotherThread();

            c.replies.ok(7);
            c.replies.error(new Frame.Send(8, 1, new byte[0]), ErrorCode.RESOURCE_EXHAUSTED, "full");

            assertEquals(
                    List.of(new Frame.Error(8, ErrorCode.RESOURCE_EXHAUSTED, "full"), queued, new Frame.Ok(7)),
                    c.written());
        }
    }

    @Test
    void typedAnswersGoAtOnce() throws Exception {
        try (Connection c = new Connection()) {
            Frame.Deliver queued = c.deliveryQueuedByAnotherThread();

            c.replies.answer(new Frame.Recovered(3, 1));

            assertEquals(List.of(new Frame.Recovered(3, 1), queued), c.written());
        }
    }

    @Test
    void aRequestWithIdZeroHearsOnlyOfItsFailureByRequestFailed() throws Exception {
        try (Connection c = new Connection()) {
            c.replies.ok(0);
            c.replies.error(new Frame.Credit(1, -1), ErrorCode.INVALID_REQUEST, "credit must not be negative: -1");

            assertEquals(
                    List.of(new Frame.RequestFailed(
                            FrameType.CREDIT.code(), ErrorCode.INVALID_REQUEST, "credit must not be negative: -1")),
                    c.written());
            assertTrue(c.channel.isOpen());
        }
    }

    @Test
    void aFutureIsAnsweredOkOrWithTheErrorItsFailureMeans() throws Exception {
        try (Connection c = new Connection()) {
            c.replies.whenDone(new Frame.Send(1, 1, new byte[0]), CompletableFuture.completedFuture(null));
            c.replies.whenDone(
                    new Frame.Send(2, 1, new byte[0]),
                    CompletableFuture.failedFuture(new QueueFullException("queue full")));
            c.replies.whenDone(
                    new Frame.Send(3, 1, new byte[0]),
                    CompletableFuture.failedFuture(new StoreUnavailableException("disk full", null)));
            c.replies.whenDone(
                    new Frame.Commit(4, 1), CompletableFuture.failedFuture(new QueueFullException("queue full")));
            c.replies.whenDone(
                    new Frame.Send(5, 1, new byte[0]),
                    CompletableFuture.failedFuture(new IllegalStateException("bug")));

            assertEquals(
                    List.of(
                            new Frame.Error(2, ErrorCode.RESOURCE_EXHAUSTED, "queue full"),
                            new Frame.Error(3, ErrorCode.RESOURCE_EXHAUSTED, "disk full"),
                            new Frame.Error(
                                    4,
                                    ErrorCode.TRANSACTION_ROLLED_BACK,
                                    "queue full; the transaction was rolled back"),
                            new Frame.Error(5, ErrorCode.INTERNAL, "bug"),
                            new Frame.Ok(1)),
                    c.written());
        }
    }

    @Test
    void aConnectionLevelErrorHasRequestIdZeroAndClosesTheConnectionOnceWritten() throws Exception {
        try (Connection c = new Connection()) {
            c.replies.fail(ErrorCode.MALFORMED_FRAME, "garbage");

            assertEquals(List.of(new Frame.Error(0, ErrorCode.MALFORMED_FRAME, "garbage")), c.written());
            assertFalse(c.channel.isOpen());
        }
    }

    @Test
    void anAnswerThatEndsTheConnectionIsWrittenThenTheConnectionCloses() throws Exception {
        try (Connection c = new Connection()) {
            c.replies.answerThenClose(new Frame.Ok(9));

            assertEquals(List.of(new Frame.Ok(9)), c.written());
            assertFalse(c.channel.isOpen());
        }
    }

    /** A channel with nothing but the replies, whose event loop is the test's thread. */
    private static final class Connection implements AutoCloseable {
        final TestEventLoop loop = new TestEventLoop();
        final TestChannel channel;
        final Replies replies;

        Connection() throws Exception {
            channel = new TestChannel(loop, ConnectionFixture.LOOPBACK);
            replies = new Replies(channel);
        }

        /** A delivery written by another thread, as a queue's thread writes one: queued on the loop. */
        Frame.Deliver deliveryQueuedByAnotherThread() throws InterruptedException {
            Frame.Deliver queued = new Frame.Deliver(1, 1, 1, -1, new byte[0]);
            Thread queueThread = new Thread(() -> channel.writeAndFlush(queued, channel.voidPromise()));
            queueThread.start();
            queueThread.join(TestEventLoop.WAIT.toMillis());
            assertTrue(channel.outboundMessages().isEmpty(), "written before the loop ran");
            return queued;
        }

        /** What the node wrote, once the loop ran what was queued to it. */
        List<Frame> written() {
            loop.runPending();
            List<Frame> out = new ArrayList<>();
            Frame f;
            while ((f = channel.readOutbound()) != null) {
                out.add(f);
            }
            return out;
        }

        @Override
        public void close() {
            channel.close();
        }
    }
}
