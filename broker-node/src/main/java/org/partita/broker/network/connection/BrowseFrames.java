package org.partita.broker.network.connection;

import java.util.ArrayList;
import java.util.List;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.DestinationAddress;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.security.Operation;
import org.partita.protocol.DestinationName;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.selector.Selector;
import org.partita.protocol.selector.SelectorException;

/**
 * BROWSE: a snapshot of a queue's messages that match a selector, in delivery order, answered in
 * BROWSE_CHUNKs of about a mebibyte each, the last one flagged.
 */
final class BrowseFrames {
    private static final int CHUNK_BYTES = 1024 * 1024;

    private final ConnectionState state;
    private final Broker broker;
    private final Replies replies;

    BrowseFrames(ConnectionState state, Broker broker, Replies replies) {
        this.state = state;
        this.broker = broker;
        this.replies = replies;
    }

    void browse(Frame.Browse f) {
        Selector selector;
        try {
            selector = Selector.parse(f.selector());
        } catch (SelectorException e) {
            replies.error(f, ErrorCode.INVALID_SELECTOR, e.getMessage());
            return;
        }
        DestinationName dest = state.destination(f.destination());
        if (!dest.kind().isQueue()) {
            replies.error(f, ErrorCode.INVALID_REQUEST, "only queues can be browsed: " + dest);
            return;
        }
        state.authorize(Operation.BROWSE, dest);
        // Async on the broker's pool, never inline on this event loop: reading paged-out messages
        // back is an H2 call, and a browse that finished fast would otherwise run it right here.
        DestinationAddress address = DestinationAddress.parse(dest.name());
        // orders?appId=billing browses the AppId's queue; plain names browse the queue itself
        BrokerQueue browsed = dest.kind() == DestinationName.Kind.QUEUE
                        && address.consumerOptions().containsKey("appId")
                ? state.destinations().consumerQueue(dest, address)
                : state.destinations().queue(dest);
        browsed.browse(selector)
                .whenCompleteAsync(
                        (messages, t) -> {
                            if (t != null) {
                                replies.error(f, ErrorCode.INTERNAL, t.toString());
                                return;
                            }
                            List<byte[]> chunk = new ArrayList<>();
                            int bytes = 0;
                            for (MessageRef m : messages) {
                                byte[] encoded = browsable(m);
                                if (encoded == null) {
                                    continue;
                                }
                                if (!chunk.isEmpty() && bytes + encoded.length > CHUNK_BYTES) {
                                    // flushed chunk by chunk: a deep backlog of paged-out messages must not pile up
                                    // here
                                    replies.answer(new Frame.BrowseChunk(f.requestId(), chunk, false));
                                    chunk = new ArrayList<>();
                                    bytes = 0;
                                }
                                chunk.add(encoded);
                                bytes += encoded.length;
                            }
                            replies.lastChunk(new Frame.BrowseChunk(f.requestId(), chunk, true));
                        },
                        broker.pool());
    }

    /** The bytes of a browsed message, or null if it was consumed and deleted since the snapshot. */
    private static byte[] browsable(MessageRef m) {
        try {
            return m.encoded();
        } catch (IllegalStateException consumedMeanwhile) {
            return null;
        }
    }
}
