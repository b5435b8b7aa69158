package org.partita.broker.network.connection;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.network.NodeContext;
import org.partita.broker.network.flow.NodeMemory;
import org.partita.broker.network.flow.SendWindow;
import org.partita.broker.security.Operation;
import org.partita.broker.store.large.LargeBodies;
import org.partita.protocol.DestinationName;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.WireMessage;

/**
 * Messages coming in: a client's SEND, within the connection's send window and the node's limits
 * (message size, non-persistent and open-transaction budgets), stored at once or added to the
 * session's transaction or XA branch; and FORWARD, a message another node of the cluster hands over.
 */
final class SendFrames {
    /** Bytes a DELIVER frame adds around a message: type, consumer id, delivery id, count, partition, length. */
    private static final int DELIVER_OVERHEAD = 1 + 4 + 8 + 4 + 4 + 4;

    private static final Handled NOT_QUEUED = new Handled(true, List.of());
    private static final CompletableFuture<Handled> DONE = CompletableFuture.completedFuture(NOT_QUEUED);
    /**
     * Forwards refused for their layout: expected for moments at each layout change, so at most a few
     * lines per queue and window, enough to see one that goes on (two nodes that disagree for good).
     */
    private static final org.partita.broker.logging.RateLimitedLog LAYOUT_REFUSALS =
            new org.partita.broker.logging.RateLimitedLog(org.slf4j.LoggerFactory.getLogger(SendFrames.class));

    private final ConnectionState state;
    private final Broker broker;
    private final NodeContext node;
    private final NodeMemory memory;
    private final Replies replies;
    private final LargeBodyFrames largeBodies;

    SendFrames(
            ConnectionState state,
            Broker broker,
            NodeContext node,
            NodeMemory memory,
            Replies replies,
            LargeBodyFrames largeBodies) {
        this.state = state;
        this.broker = broker;
        this.node = node;
        this.memory = memory;
        this.replies = replies;
        this.largeBodies = largeBodies;
    }

    /** Counts the send against the connection's window until the node is done with it. */
    void send(Frame.Send f) {
        int bytes = f.message().length;
        SendWindow window = state.sendWindow();
        window.received(bytes);
        CompletableFuture<Handled> handled;
        try {
            handled = handle(f);
        } catch (RuntimeException e) {
            window.handled(bytes, true, List.of());
            throw e;
        }
        handled.whenComplete((h, t) -> {
            boolean persistent = h == null || h.persistent();
            window.handled(bytes, persistent, persistent ? List.of() : h.queued());
        });
    }

    /** How a send ended, for its credit: a non-persistent message queued names its queues, whose consumers pace it. */
    private record Handled(boolean persistent, List<BrokerQueue> queued) {}

    private CompletableFuture<Handled> handle(Frame.Send f) {
        ServerSession session = state.session(f.sessionId());
        LargeBodies.Upload upload = null;
        if (f.uploadId() != 0) {
            upload = largeBodies.take(f);
            if (upload == null) {
                return DONE;
            }
        }
        try {
            return handle(f, session, upload);
        } catch (org.partita.broker.core.DefinitionPendingException e) {
            if (upload != null) {
                largeBodies.putBack(f, upload); // the SEND is handled again once the cluster agreed
                upload = null;
            }
            throw e;
        } finally {
            if (upload != null && !upload.sent()) {
                upload.abandon(); // refused before it became a message: nothing keeps its body
            }
        }
    }

    /** @param upload the large body the message has apart, or null */
    private CompletableFuture<Handled> handle(Frame.Send f, ServerSession session, LargeBodies.Upload upload) {
        if (f.message().length > node.limits().messageBytes()) {
            // refused whole, with the connection left open: a message this large would not fit in the node's heap
            replies.error(
                    f,
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "message of " + f.message().length + " bytes is larger than the "
                            + node.limits().messageBytes()
                            + " bytes this node takes (limits.messageBytes, a share of its heap);"
                            + " the message was not taken");
            return DONE;
        }
        if (f.message().length > node.maxFrameSize() - DELIVER_OVERHEAD) {
            replies.error(
                    f,
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "message of " + f.message().length
                            + " bytes is too large to be delivered within the maximum frame size of "
                            + node.maxFrameSize() + " bytes");
            return DONE;
        }
        WireMessage wire = MessageCodec.decodeHeaders(f.message());
        DestinationName dest = state.destination(wire.destination());
        state.authorize(Operation.SEND, dest);
        if (!wire.persistent() && memory.nonPersistentOverrun()) {
            // a client that honours its credit never gets here: this one sends past it
            replies.error(
                    f,
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "the node holds its maximum of non-persistent messages ("
                            + node.limits().nonPersistentBytes() + " bytes); the message was not taken");
            return DONE;
        }
        if (session.branch() != null) {
            if (!memory.admitTransacted(f.message().length)) {
                replies.error(
                        f, ErrorCode.RESOURCE_EXHAUSTED, openTransactionsFull("end the XA branch and roll it back"));
                return DONE;
            }
            // given back by the branch once it no longer holds its sends
            if (!broker.xa()
                    .admit(
                            session.branch(),
                            f.message().length,
                            node.limits().transactionBytes(),
                            memory::transactionEnded)) {
                memory.transactionEnded(f.message().length);
                replies.error(
                        f,
                        ErrorCode.RESOURCE_EXHAUSTED,
                        "the XA branch would hold more than " + node.limits().transactionBytes()
                                + " bytes; end it and roll it back (the message was not added)");
                return DONE;
            }
        }
        if (session.transacted()
                && session.txBytes() + f.message().length > node.limits().transactionBytes()) {
            replies.error(
                    f,
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "the transaction would hold more than " + node.limits().transactionBytes()
                            + " bytes; commit or roll it back (the message was not added)");
            return DONE;
        }
        Broker.PendingSend send;
        if (upload == null) {
            MessageRef m = broker.newMessage(f.message(), wire, state.key());
            send = Broker.PendingSend.routed(state.destinations().targets(dest, m), m);
        } else {
            LargeBodyFrames.Sent sent = largeBodies.message(f, wire, upload);
            if (sent == null) {
                return DONE;
            }
            send = Broker.PendingSend.routed(sent.targets(), sent.message());
        }
        MessageRef message = send.message();
        if (session.branch() != null) {
            broker.xa().addSend(session.branch(), send); // dropped if the branch already rolled back
            replies.ok(f.requestId());
            return DONE;
        }
        if (session.transacted()) {
            if (!memory.admitTransacted(f.message().length)) {
                // node-wide: many sessions each with a large open transaction must not fill the heap
                replies.error(f, ErrorCode.RESOURCE_EXHAUSTED, openTransactionsFull("commit or roll back"));
                return DONE;
            }
            session.txSends().add(send);
            session.addTxBytes(f.message().length);
            replies.ok(f.requestId());
            return DONE;
        }
        CompletableFuture<Void> stored = broker.send(send);
        if (message.large()) {
            // refused, or taken by no queue (a topic without subscriptions): nothing keeps its body
            stored.whenComplete((v, t) -> message.discardUntaken());
        }
        replies.whenDone(f, stored);
        boolean persistent = wire.persistent();
        return stored.handle((v, t) -> new Handled(persistent, t == null ? send.targets() : List.of()));
    }

    private String openTransactionsFull(String what) {
        return "the node's open transactions would hold more than " + memory.openTransactionLimit()
                + " bytes (limits.openTransactionBytes); " + what + " (the message was not added)";
    }

    /**
     * Another node hands over a message of a clustered queue whose partition this node hosts. Stored
     * like a persistent send; a message that node forwarded before (it may repeat one after a crash)
     * is taken once.
     */
    /**
     * A forwarded message refused because this node stopped serving its partition while storing it
     * (a replica set's leadership moved, nothing kept) is answered as a partition this node has not:
     * the sender tries the partition's new leader.
     */
    private static java.util.concurrent.CompletionStage<Void> movedOn(Throwable t) {
        Throwable cause = FailureCodes.unwrap(t);
        if (cause instanceof org.partita.broker.store.StoreUnavailableException u && u.servedElsewhereNow()) {
            return java.util.concurrent.CompletableFuture.failedFuture(
                    new org.partita.broker.core.queue.UnknownDestinationException(
                            "this node stopped serving the message's partition meanwhile (" + cause.getMessage()
                                    + "); nothing was stored: try its new leader"));
        }
        return java.util.concurrent.CompletableFuture.failedFuture(t);
    }

    void forward(Frame.Forward f) {
        String peerNode = state.peerNode();
        if (peerNode == null) {
            replies.error(f, ErrorCode.INVALID_REQUEST, "only the nodes of the cluster forward messages");
            return;
        }
        WireMessage wire = MessageCodec.decodeHeaders(f.message());
        BrokerQueue queue = broker.existingQueue(f.queue());
        if (queue == null) {
            replies.error(
                    f,
                    ErrorCode.UNKNOWN_DESTINATION,
                    "queue '" + f.queue() + "' is not defined on node " + node.nodeName() + " yet");
            return;
        }
        String here = f.layout() == null ? null : node.cluster().layoutOf(f.queue());
        if (here != null && !here.equals(f.layout())) {
            // One node applied a layout change before the other: stored by this node's layout, the
            // message could land in a partition the sender's layout no longer has, where no one would
            // deliver it. The sender keeps it and tries again once both apply the same layout.
            LAYOUT_REFUSALS.info(
                    "layout:" + f.queue(),
                    "refused a message of queue {} forwarded by node {}: routed as {}, laid out here as {}",
                    f.queue(),
                    peerNode,
                    f.layout(),
                    here);
            replies.error(
                    f,
                    ErrorCode.UNKNOWN_DESTINATION,
                    "queue '" + f.queue() + "' is laid out on node " + node.nodeName() + " as " + here
                            + ", not as the sender routed the message (" + f.layout()
                            + "): one of them has not applied the latest change yet; nothing was stored");
            return;
        }
        MessageRef message = broker.newMessage(f.message(), wire, state.key());
        queue.keyForPartitions(message); // as the sending node keyed it
        if (!queue.hostsPartitionOf(message)) {
            // The sender applied a layout change first; it keeps the message and tries again shortly,
            // by when this node has applied the change too (refused like a queue not defined yet).
            replies.error(
                    f,
                    ErrorCode.UNKNOWN_DESTINATION,
                    "queue '" + f.queue() + "' has no partition for this message on node " + node.nodeName()
                            + " yet: its layout here is older than the sender's");
            return;
        }
        // Two copies may come at once: one the node sent over a link it then gave up as down (read
        // here only now), and the retry over the new link.
        replies.whenDone(
                f,
                node.cluster()
                        .storeOnce(
                                peerNode,
                                f.queue(),
                                wire.messageId(),
                                () -> broker.send(new Broker.PendingSend(
                                                broker.storedIn(queue), message, f.deliveryCount()))
                                        .exceptionallyCompose(SendFrames::movedOn)
                                        .thenRun(() -> {})));
    }
}
