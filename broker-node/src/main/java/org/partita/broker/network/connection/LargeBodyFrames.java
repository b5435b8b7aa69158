package org.partita.broker.network.connection;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.network.NodeContext;
import org.partita.broker.store.large.LargeBodies;
import org.partita.protocol.DestinationName;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.Protocol;
import org.partita.protocol.WireMessage;

/**
 * Large message bodies on one connection: BODY_PART writes the parts of a body to its file as they
 * come, SEND then names the upload ({@link #take}), and BODY_READ reads a delivered message's body
 * back in parts (docs/protocol.md, "Large messages"). Uploads not sent when the connection closes
 * are deleted. Event loop only.
 */
final class LargeBodyFrames {
    /** The most a BODY_READ answers at once, whatever it asks: what the node holds of a body per read. */
    static final int READ_BYTES_MAX = 1 << 20;
    /** Parts of one upload the node accepts before the earlier ones are written. */
    static final int MAX_UNWRITTEN_PARTS = 16;

    private final ConnectionState state;
    private final Broker broker;
    private final NodeContext node;
    private final Replies replies;
    private final Map<Integer, LargeBodies.Upload> uploads = new HashMap<>();

    LargeBodyFrames(ConnectionState state, Broker broker, NodeContext node, Replies replies) {
        this.state = state;
        this.broker = broker;
        this.node = node;
        this.replies = replies;
    }

    void part(Frame.BodyPart f) {
        LargeBodies bodies = node.largeBodies();
        if (bodies == null) {
            replies.error(f, ErrorCode.INVALID_REQUEST, "this node takes no large messages");
            return;
        }
        LargeBodies.Upload upload = uploads.get(f.uploadId());
        if (upload == null) {
            if (f.offset() != 0 || f.uploadId() == 0) {
                replies.error(
                        f,
                        ErrorCode.INVALID_REQUEST,
                        "upload " + f.uploadId() + " is unknown; a body's first part is at offset 0");
                return;
            }
            try {
                upload = bodies.begin(broker.reserveMessageId());
            } catch (IOException e) {
                replies.error(f, ErrorCode.RESOURCE_EXHAUSTED, "cannot keep a large body: " + e.getMessage());
                return;
            }
            uploads.put(f.uploadId(), upload);
        }
        if (upload.finished() || f.offset() != upload.received()) {
            refuse(
                    f,
                    ErrorCode.INVALID_REQUEST,
                    upload.finished()
                            ? "upload " + f.uploadId() + " had its last part already"
                            : "upload " + f.uploadId() + " has " + upload.received() + " bytes, not " + f.offset());
            return;
        }
        if (upload.unwritten() >= MAX_UNWRITTEN_PARTS) {
            // the node holds what it has not written yet: a client waits for its answers (eight at most)
            refuse(
                    f,
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "upload " + f.uploadId() + " has " + MAX_UNWRITTEN_PARTS
                            + " parts not yet written; wait for their answers");
            return;
        }
        if (upload.received() + f.data().length > LargeBodies.MAX_BODY_BYTES) {
            refuse(
                    f,
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "a message body may have at most " + LargeBodies.MAX_BODY_BYTES
                            + " bytes; the message was not taken");
            return;
        }
        upload.accept(f.data(), f.last()).whenComplete((v, t) -> {
            if (t == null) {
                replies.ok(f.requestId());
            } else {
                Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
                state.channel()
                        .eventLoop()
                        .execute(() -> refuse(
                                f,
                                ErrorCode.RESOURCE_EXHAUSTED,
                                "cannot write the large body to the disk (" + cause.getMessage()
                                        + "); the message was not taken"));
            }
        });
    }

    /** Answers {@code f} with an error and deletes its upload. */
    private void refuse(Frame.BodyPart f, ErrorCode code, String message) {
        LargeBodies.Upload gone = uploads.remove(f.uploadId());
        if (gone != null) {
            gone.abandon();
        }
        replies.error(f, code, message);
    }

    /**
     * The upload a SEND names, taken out of the connection; null (the SEND answered with an error) if
     * it has none ready.
     */
    LargeBodies.Upload take(Frame.Send f) {
        LargeBodies.Upload upload = uploads.remove(f.uploadId());
        if (upload == null || !upload.ready()) {
            if (upload != null) {
                upload.abandon();
            }
            replies.error(
                    f,
                    ErrorCode.INVALID_REQUEST,
                    "upload " + f.uploadId() + " is not a large body whose last part was written; the message was not"
                            + " taken");
            return null;
        }
        return upload;
    }

    /** Gives back the upload of a SEND that waits to be handled again. */
    void putBack(Frame.Send f, LargeBodies.Upload upload) {
        uploads.put(f.uploadId(), upload);
    }

    /**
     * The message of a SEND with a large body: kept with its body apart when every queue it goes to is
     * of this node alone, else (a clustered queue: its partitions' nodes keep messages whole) with its
     * body put back in, when the whole fits in {@code limits.messageBytes}. Null (the SEND answered with
     * an error, the body deleted) when it does not.
     */
    Sent message(Frame.Send f, WireMessage wire, LargeBodies.Upload upload) {
        DestinationName dest = state.destination(wire.destination());
        MessageRef large = broker.newLargeMessage(upload.messageId(), f.message(), wire, state.key());
        List<BrokerQueue> targets = state.destinations().targets(dest, large);
        // the queue named, not its targets: a clustered queue's message may go to a forward log
        BrokerQueue named =
                dest.kind() == DestinationName.Kind.QUEUE ? state.destinations().queue(dest) : null;
        upload.markSent();
        if (named == null || !broker.clustered(named.options())) {
            return new Sent(large, targets);
        }
        long whole = upload.received() + f.message().length;
        if (whole > node.limits().messageBytes()) {
            upload.abandon(); // also deletes the body "large" was made with
            replies.error(
                    f,
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "a message of " + whole + " bytes is too large for clustered queue " + named.name()
                            + ": the nodes of a clustered queue keep messages whole, up to "
                            + node.limits().messageBytes()
                            + " bytes (limits.messageBytes); large messages go to queues and topics of one node."
                            + " The message was not taken");
            return null;
        }
        byte[] inlined;
        try {
            // on the event loop, as the message is: within limits.messageBytes, and written a moment ago
            inlined = inline(f.message(), broker.largeBodies().readNow(upload.messageId(), 0, (int) upload.received()));
        } catch (IOException e) {
            upload.abandon();
            replies.error(f, ErrorCode.RESOURCE_EXHAUSTED, "cannot read the large body back: " + e.getMessage());
            return null;
        }
        upload.abandon();
        WireMessage inlineWire = MessageCodec.decodeHeaders(inlined);
        MessageRef whole1 = broker.newMessage(inlined, inlineWire, state.key());
        return new Sent(whole1, state.destinations().targets(dest, whole1));
    }

    /** A message to send and the queues it goes to. */
    record Sent(MessageRef message, List<BrokerQueue> targets) {}

    /** The message with its body in it, no longer marked large. */
    private static byte[] inline(byte[] encoded, byte[] body) {
        WireMessage m = MessageCodec.decode(encoded);
        Map<String, Object> properties = new java.util.LinkedHashMap<>(m.properties());
        properties.remove(Protocol.LARGE_BODY_BYTES_PROPERTY);
        return MessageCodec.encode(m.with(properties, body));
    }

    void read(Frame.BodyRead f) {
        LargeBodies bodies = node.largeBodies();
        long messageId = deliveredLargeMessage(f.deliveryId());
        if (bodies == null || messageId < 0 || !bodies.holds(messageId)) {
            replies.error(
                    f,
                    ErrorCode.INVALID_REQUEST,
                    "delivery " + f.deliveryId() + " is not a large message delivered to this connection and not"
                            + " yet acknowledged");
            return;
        }
        if (f.length() <= 0 || f.offset() < 0) {
            replies.error(
                    f, ErrorCode.INVALID_REQUEST, "a body read needs a length above 0 and an offset of 0 or more");
            return;
        }
        bodies.read(messageId, f.offset(), Math.min(f.length(), READ_BYTES_MAX)).whenComplete((data, t) -> {
            if (t == null) {
                replies.answer(new Frame.BodyData(f.requestId(), data));
            } else {
                Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
                replies.error(f, ErrorCode.RESOURCE_EXHAUSTED, "cannot read the large body: " + cause);
            }
        });
    }

    /** The id of the message an unsettled delivery of this connection holds, or -1. */
    private long deliveredLargeMessage(long deliveryId) {
        for (ServerSession s : state.sessions().values()) {
            Delivery d = s.delivered(deliveryId);
            if (d instanceof LocalDelivery l) {
                return l.entry().message().id();
            }
        }
        return -1;
    }

    /** The connection closed: bodies uploaded and never sent are deleted. */
    void closeAll() {
        uploads.values().forEach(LargeBodies.Upload::abandon);
        uploads.clear();
    }
}
