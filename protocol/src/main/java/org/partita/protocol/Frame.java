package org.partita.protocol;

import static org.partita.protocol.WireFormat.writeBytes;
import static org.partita.protocol.WireFormat.writeLongs;
import static org.partita.protocol.WireFormat.writeString;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * Every frame of the Partita wire protocol (docs/protocol.md). Frames that expect an answer carry a
 * {@code requestId} chosen by the sender; the answer ({@link Ok}, {@link Error}, or a typed reply)
 * carries the same id. A request id of 0 asks for no answer.
 *
 * <p>Messages travel as opaque encoded blobs ({@link MessageCodec}) so the broker stores and
 * forwards them without re-encoding.
 */
public sealed interface Frame {

    FrameType type();

    /** Writes the fields after the type byte, in the order docs/protocol.md lists them. */
    void writeBody(ByteBuf out);

    /** The request id this frame carries or answers; 0 for frames that have none. */
    default int requestId() {
        return 0;
    }

    /** Consumer flags in {@link ConsumerOpen#flags()}. */
    int FLAG_DURABLE = 1;

    int FLAG_SHARED = 2;
    int FLAG_NO_LOCAL = 4;

    /** Operations of {@link DestinationOp}. */
    int OP_CREATE_TEMP_QUEUE = 1;

    int OP_CREATE_TEMP_TOPIC = 2;
    int OP_DELETE_TEMP = 3;
    int OP_UNSUBSCRIBE = 4;
    /** Claims a client id after the handshake (Connection.setClientID). */
    int OP_SET_CLIENT_ID = 5;
    /**
     * Names a queue with options, as a producer does when it is created: the queue is created with
     * them if it does not exist, and they are checked against it if it does.
     */
    int OP_DECLARE_QUEUE = 6;

    record Hello(int requestId, int version, String user, String password, String clientId) implements Frame {
        public FrameType type() {
            return FrameType.HELLO;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(version());
            writeString(out, user());
            writeString(out, password());
            writeString(out, clientId());
        }

        @Override
        public String toString() {
            return "Hello[requestId=" + requestId + ", version=" + version + ", user=" + user + ", clientId=" + clientId
                    + "]";
        }
    }

    /**
     * @param deliveryLeaseMillis how long after the client last heard from the node it may still hand
     *     a prefetched message to the application without asking the node first (0: no limit). A
     *     node of a cluster sets it below the time another node needs to take its partitions over, so
     *     a client of a node that stopped answering does not hand out a message the other node may
     *     have redelivered meanwhile. Written from version {@link Protocol#DELIVERY_LEASE_VERSION} on.
     */
    record HelloOk(int requestId, int version, String nodeName, int maxFrameSize, int deliveryLeaseMillis)
            implements Frame {
        public HelloOk(int requestId, int version, String nodeName, int maxFrameSize) {
            this(requestId, version, nodeName, maxFrameSize, 0);
        }

        public FrameType type() {
            return FrameType.HELLO_OK;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(version());
            writeString(out, nodeName());
            out.writeInt(maxFrameSize());
            if (version() >= Protocol.DELIVERY_LEASE_VERSION) {
                out.writeInt(deliveryLeaseMillis());
            }
        }
    }

    /**
     * Node to client (version {@link Protocol#GREETING_VERSION} on): the node's first answer to a HELLO
     * of a version it speaks, written at once, before the login is checked (which may take a while on
     * the node's login pool); HELLO_OK or ERROR follows. It vouches only that a Partita node listens,
     * so a client tells a port where something else listens in silence from a node within a short
     * bound rather than its whole connect timeout.
     *
     * @param requestId the HELLO's; the HELLO is still owed its answer
     */
    record Greeting(int requestId) implements Frame {
        public FrameType type() {
            return FrameType.GREETING;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
        }
    }

    record Ok(int requestId) implements Frame {
        public FrameType type() {
            return FrameType.OK;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
        }
    }

    record Error(int requestId, ErrorCode code, String message) implements Frame {
        public FrameType type() {
            return FrameType.ERROR;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(code().wire());
            writeString(out, message());
        }
    }

    record SessionOpen(int requestId, int sessionId, boolean transacted) implements Frame {
        public FrameType type() {
            return FrameType.SESSION_OPEN;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
            out.writeBoolean(transacted());
        }
    }

    record SessionClose(int requestId, int sessionId) implements Frame {
        public FrameType type() {
            return FrameType.SESSION_CLOSE;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
        }
    }

    /** A message to store and route. The answer ({@link Ok}) is the send confirmation. */
    /**
     * Sends a message. {@code uploadId} (version {@link Protocol#LARGE_MESSAGE_VERSION}, optional at the
     * end, 0 = none): the message's body is the large one uploaded in {@link BodyPart}s under this id,
     * and its own body is empty; a client writes it only when it is not 0.
     */
    record Send(int requestId, int sessionId, byte[] message, int uploadId) implements Frame {
        public Send {
            java.util.Objects.requireNonNull(message, "message");
        }

        public Send(int requestId, int sessionId, byte[] message) {
            this(requestId, sessionId, message, 0);
        }

        public FrameType type() {
            return FrameType.SEND;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
            writeBytes(out, message());
            if (uploadId != 0) {
                out.writeInt(uploadId);
            }
        }
    }

    /**
     * Opens a consumer. {@code windowBytes} (version 5, optional at the end, 0 = none): the node stops
     * delivering to it while what it sent and the client has not given credit back for reaches this
     * many bytes (at least one message always goes), beside the message {@code credit}.
     */
    record ConsumerOpen(
            int requestId,
            int sessionId,
            int consumerId,
            String destination,
            String selector,
            String subscription,
            int flags,
            int credit,
            long windowBytes)
            implements Frame {
        public ConsumerOpen {
            java.util.Objects.requireNonNull(destination, "destination");
        }

        /** A consumer without a byte window (as every client before version 5 opens one). */
        public ConsumerOpen(
                int requestId,
                int sessionId,
                int consumerId,
                String destination,
                String selector,
                String subscription,
                int flags,
                int credit) {
            this(requestId, sessionId, consumerId, destination, selector, subscription, flags, credit, 0);
        }

        public FrameType type() {
            return FrameType.CONSUMER_OPEN;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
            out.writeInt(consumerId());
            writeString(out, destination());
            writeString(out, selector());
            writeString(out, subscription());
            out.writeInt(flags());
            out.writeInt(credit());
            if (windowBytes() != 0) {
                out.writeLong(windowBytes()); // optional at the end: a node before version 5 cannot read it
            }
        }

        public boolean durable() {
            return (flags & FLAG_DURABLE) != 0;
        }

        public boolean shared() {
            return (flags & FLAG_SHARED) != 0;
        }

        public boolean noLocal() {
            return (flags & FLAG_NO_LOCAL) != 0;
        }
    }

    record ConsumerClose(int requestId, int consumerId) implements Frame {
        public FrameType type() {
            return FrameType.CONSUMER_CLOSE;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(consumerId());
        }
    }

    /**
     * Changes a consumer while it is attached. {@code priority} Integer.MIN_VALUE and negative
     * capacities mean "unchanged"; a capacity of 0 means no limit. {@code spare} is only sent by a
     * cluster node about a consumer it opened for its own client: 1 when that node gives the consumer
     * none of its own partitions (so other hosting nodes may give it theirs), 0 when it does, -1 unchanged
     * (then not written).
     */
    record ConsumerUpdate(
            int requestId, int consumerId, int priority, int capacityMessages, long capacityBytes, byte spare)
            implements Frame {
        public static final byte UNCHANGED = -1;

        public ConsumerUpdate(int requestId, int consumerId, int priority, int capacityMessages, long capacityBytes) {
            this(requestId, consumerId, priority, capacityMessages, capacityBytes, UNCHANGED);
        }

        public FrameType type() {
            return FrameType.CONSUMER_UPDATE;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(consumerId());
            out.writeInt(priority());
            out.writeInt(capacityMessages());
            out.writeLong(capacityBytes());
            if (spare() != UNCHANGED) {
                out.writeByte(spare()); // optional at the end: clients never send it, and older ones cannot
            }
        }
    }

    /**
     * An administrative command (docs/admin.md), e.g. {@code queue.update} with argument
     * {@code orders?partitions=8}. Answered by {@link AdminReply} or {@link Error}.
     */
    record Admin(int requestId, String command, String argument) implements Frame {
        public Admin {
            java.util.Objects.requireNonNull(command, "command");
        }

        public FrameType type() {
            return FrameType.ADMIN;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            writeString(out, command());
            writeString(out, argument());
        }
    }

    /** The answer to {@link Admin}: text in {@code name=value} lines. */
    record AdminReply(int requestId, String body) implements Frame {
        public FrameType type() {
            return FrameType.ADMIN_REPLY;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            writeString(out, body());
        }
    }

    /**
     * Node to client: a request sent without an answer ({@code requestId} 0, such as a non-persistent
     * send) failed. Not a connection error: the connection stays open.
     *
     * @param requestType the frame type code of the request that failed
     */
    record RequestFailed(int requestType, ErrorCode code, String message) implements Frame {
        public FrameType type() {
            return FrameType.REQUEST_FAILED;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestType());
            out.writeInt(code().wire());
            writeString(out, message());
        }
    }

    /** Node to client: the partitions of a partitioned queue this consumer owns now. */
    record Partitions(int consumerId, int[] owned) implements Frame {
        public Partitions {
            java.util.Objects.requireNonNull(owned, "owned");
        }

        public FrameType type() {
            return FrameType.PARTITIONS;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(consumerId());
            out.writeInt(owned().length);
            for (int p : owned()) {
                out.writeInt(p);
            }
        }
    }

    /** Grants a consumer room for this many more messages. */
    record Credit(int consumerId, int messages) implements Frame {
        public FrameType type() {
            return FrameType.CREDIT;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(consumerId());
            out.writeInt(messages());
        }
    }

    /**
     * Client to node (version {@link Protocol#LARGE_MESSAGE_VERSION} on): the next part of a large
     * message's body, at {@code offset} within it, for the upload {@code uploadId} (chosen by the
     * client, unique within the connection). The node writes it to a file of its data folder, never
     * holding the body whole; {@code last} closes the body and forces it to the disk. Answered by
     * {@link Ok} once written (forced, for the last part). A {@link Send} naming the upload then sends
     * the message with that body.
     */
    record BodyPart(int requestId, int uploadId, long offset, byte[] data, boolean last) implements Frame {
        public BodyPart {
            java.util.Objects.requireNonNull(data, "data");
        }

        public FrameType type() {
            return FrameType.BODY_PART;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(uploadId());
            out.writeLong(offset());
            writeBytes(out, data());
            out.writeBoolean(last());
        }

        @Override
        public String toString() {
            return "BodyPart[requestId=" + requestId + ", uploadId=" + uploadId + ", offset=" + offset + ", bytes="
                    + data.length + ", last=" + last + "]";
        }
    }

    /**
     * Client to node (version {@link Protocol#LARGE_MESSAGE_VERSION} on): up to {@code length} bytes of
     * the body of the large message delivered as {@code deliveryId} (not yet acknowledged), from
     * {@code offset}. Answered by {@link BodyData}.
     */
    record BodyRead(int requestId, long deliveryId, long offset, int length) implements Frame {
        public FrameType type() {
            return FrameType.BODY_READ;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeLong(deliveryId());
            out.writeLong(offset());
            out.writeInt(length());
        }
    }

    /** Node to client: the answer to a {@link BodyRead}; fewer bytes than asked only at the body's end. */
    record BodyData(int requestId, byte[] data) implements Frame {
        public BodyData {
            java.util.Objects.requireNonNull(data, "data");
        }

        public FrameType type() {
            return FrameType.BODY_DATA;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            writeBytes(out, data());
        }

        @Override
        public String toString() {
            return "BodyData[requestId=" + requestId + ", bytes=" + data.length + "]";
        }
    }

    /**
     * Node to node only: a message for {@code queue}, a queue spread over the cluster whose partition
     * for this message the receiving node hosts. {@code deliveryCount} is above 0 when the sending
     * node may have forwarded it before (it restarted after a crash), so a copy comes flagged
     * redelivered. Answered by {@link Ok} once stored, as a persistent send is.
     *
     * <p>{@code layout} is the queue's partitions, hosts, replicas and leaders as the sending node
     * routed by them (null from a node that does not say): a node that has not applied the same
     * layout yet refuses the message, storing nothing, rather than keep it in a partition its own
     * layout gives the message, which the sender's no longer has.
     */
    record Forward(int requestId, String queue, int deliveryCount, byte[] message, String layout) implements Frame {
        public Forward {
            java.util.Objects.requireNonNull(queue, "queue");
            java.util.Objects.requireNonNull(message, "message");
        }

        /** A forward that does not say which layout routed it. */
        public Forward(int requestId, String queue, int deliveryCount, byte[] message) {
            this(requestId, queue, deliveryCount, message, null);
        }

        public FrameType type() {
            return FrameType.FORWARD;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            writeString(out, queue());
            out.writeInt(deliveryCount());
            writeBytes(out, message());
            if (layout() != null) {
                writeString(out, layout());
            }
        }
    }

    /**
     * Takes back every credit the node holds for a consumer (its connection stopped, or a pull with
     * prefetch 0 timed out). Answered by {@link Ok} once no delivery allowed by that credit can still
     * follow on the wire.
     */
    record Drain(int requestId, int consumerId) implements Frame {
        public FrameType type() {
            return FrameType.DRAIN;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(consumerId());
        }
    }

    /**
     * A message for a consumer. {@code deliveryCount} is 1 on first delivery; {@code partition} is the
     * partition of a partitioned queue it comes from (-1 otherwise), so that a client can give back
     * what it prefetched of a partition that moves to another consumer.
     */
    record Deliver(int consumerId, long deliveryId, int deliveryCount, int partition, byte[] message) implements Frame {
        public Deliver {
            java.util.Objects.requireNonNull(message, "message");
        }

        public FrameType type() {
            return FrameType.DELIVER;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(consumerId());
            out.writeLong(deliveryId());
            out.writeInt(deliveryCount());
            out.writeInt(partition());
            writeBytes(out, message());
        }
    }

    /** Acknowledges deliveries (in a transacted session: marks them consumed by the transaction). */
    record Ack(int requestId, int sessionId, long[] deliveryIds) implements Frame {
        public Ack {
            java.util.Objects.requireNonNull(deliveryIds, "deliveryIds");
        }

        public FrameType type() {
            return FrameType.ACK;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
            writeLongs(out, deliveryIds());
        }
    }

    /**
     * Gives deliveries back to the broker. {@code redeliver} ones were seen by the application and come
     * back with JMSRedelivered=true; {@code unseen} ones were only prefetched and keep their count.
     */
    record Release(int requestId, int sessionId, long[] redeliver, long[] unseen) implements Frame {
        public Release {
            java.util.Objects.requireNonNull(redeliver, "redeliver");
            java.util.Objects.requireNonNull(unseen, "unseen");
        }

        public FrameType type() {
            return FrameType.RELEASE;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
            writeLongs(out, redeliver());
            writeLongs(out, unseen());
        }
    }

    /**
     * Rollback or recover of a session's deliveries: {@code seen} come back redelivered, and every
     * other delivery the node made to the session so far comes back unseen, including any still on
     * the wire. Answered by {@link Recovered}.
     */
    record Recover(int requestId, int sessionId, long[] seen) implements Frame {
        public Recover {
            java.util.Objects.requireNonNull(seen, "seen");
        }

        public FrameType type() {
            return FrameType.RECOVER;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
            writeLongs(out, seen());
        }
    }

    /** Answer to {@link Recover}: deliveries numbered up to {@code fence} are void; the client drops them. */
    record Recovered(int requestId, long fence) implements Frame {
        public FrameType type() {
            return FrameType.RECOVERED;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeLong(fence());
        }
    }

    record Commit(int requestId, int sessionId) implements Frame {
        public FrameType type() {
            return FrameType.COMMIT;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
        }
    }

    record Rollback(int requestId, int sessionId) implements Frame {
        public FrameType type() {
            return FrameType.ROLLBACK;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
        }
    }

    record Browse(int requestId, String destination, String selector) implements Frame {
        public Browse {
            java.util.Objects.requireNonNull(destination, "destination");
        }

        public FrameType type() {
            return FrameType.BROWSE;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            writeString(out, destination());
            writeString(out, selector());
        }
    }

    /** One part of the answer to {@link Browse}; the last part has {@code last=true}. */
    record BrowseChunk(int requestId, List<byte[]> messages, boolean last) implements Frame {
        public BrowseChunk {
            java.util.Objects.requireNonNull(messages, "messages");
        }

        public FrameType type() {
            return FrameType.BROWSE_CHUNK;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(messages().size());
            for (byte[] m : messages()) {
                writeBytes(out, m);
            }
            out.writeBoolean(last());
        }
    }

    record DestinationOp(int requestId, int op, String name) implements Frame {
        public FrameType type() {
            return FrameType.DESTINATION_OP;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(op());
            writeString(out, name());
        }
    }

    /** Answer to a {@link DestinationOp} that creates something: the name the broker chose. */
    record Created(int requestId, String name) implements Frame {
        public FrameType type() {
            return FrameType.CREATED;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            writeString(out, name());
        }
    }

    /**
     * Node to client (version 3 on): adds {@code bytes} to the connection's send window. The client
     * sends SEND frames only while its window is above zero; each takes its message's length from it.
     */
    record SendCredit(int bytes) implements Frame {
        public FrameType type() {
            return FrameType.SEND_CREDIT;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(bytes());
        }
    }

    record Ping(int requestId) implements Frame {
        public FrameType type() {
            return FrameType.PING;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
        }
    }

    record Close(int requestId) implements Frame {
        public FrameType type() {
            return FrameType.CLOSE;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
        }
    }

    // ---- XA transaction branches ------------------------------------------------------------

    /**
     * Associates the session's work with an XA branch. {@code flags} are those of
     * {@code XAResource.start} (TMNOFLAGS, TMJOIN, TMRESUME); {@code timeoutSeconds} 0 means none.
     * Answered by {@link XaResult}.
     */
    record XaStart(int requestId, int sessionId, WireXid xid, int flags, int timeoutSeconds) implements Frame {
        public XaStart {
            java.util.Objects.requireNonNull(xid, "xid");
        }

        public FrameType type() {
            return FrameType.XA_START;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
            xid().write(out);
            out.writeInt(flags());
            out.writeInt(timeoutSeconds());
        }
    }

    /** Ends the session's association with a branch; {@code flags}: TMSUCCESS, TMFAIL or TMSUSPEND. */
    record XaEnd(int requestId, int sessionId, WireXid xid, int flags) implements Frame {
        public XaEnd {
            java.util.Objects.requireNonNull(xid, "xid");
        }

        public FrameType type() {
            return FrameType.XA_END;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(sessionId());
            xid().write(out);
            out.writeInt(flags());
        }
    }

    /** Makes a branch durable on the node and votes: {@link XaResult} with XA_OK or XA_RDONLY, or a rollback code. */
    record XaPrepare(int requestId, WireXid xid) implements Frame {
        public XaPrepare {
            java.util.Objects.requireNonNull(xid, "xid");
        }

        public FrameType type() {
            return FrameType.XA_PREPARE;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            xid().write(out);
        }
    }

    /** Commits a prepared branch, or with {@code onePhase} an unprepared one in one step. */
    record XaCommit(int requestId, WireXid xid, boolean onePhase) implements Frame {
        public XaCommit {
            java.util.Objects.requireNonNull(xid, "xid");
        }

        public FrameType type() {
            return FrameType.XA_COMMIT;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            xid().write(out);
            out.writeBoolean(onePhase());
        }
    }

    record XaRollback(int requestId, WireXid xid) implements Frame {
        public XaRollback {
            java.util.Objects.requireNonNull(xid, "xid");
        }

        public FrameType type() {
            return FrameType.XA_ROLLBACK;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            xid().write(out);
        }
    }

    /** Forgets a heuristically completed branch. */
    record XaForget(int requestId, WireXid xid) implements Frame {
        public XaForget {
            java.util.Objects.requireNonNull(xid, "xid");
        }

        public FrameType type() {
            return FrameType.XA_FORGET;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            xid().write(out);
        }
    }

    /** Asks for the node's prepared and heuristically completed branches; answered by {@link XaRecovered}. */
    record XaRecover(int requestId) implements Frame {
        public FrameType type() {
            return FrameType.XA_RECOVER;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
        }
    }

    /**
     * The answer to every XA request but {@link XaRecover}: {@code code} is an {@code XAResource}
     * or {@code XAException} code (XA_OK 0, XA_RDONLY 3, XA_RB* 100-107, XA_HEUR* 5-8, XAER_* negative).
     */
    record XaResult(int requestId, int code, String message) implements Frame {
        public FrameType type() {
            return FrameType.XA_RESULT;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(code());
            writeString(out, message());
        }
    }

    /** The answer to {@link XaRecover}. */
    record XaRecovered(int requestId, List<WireXid> xids) implements Frame {
        public XaRecovered {
            xids = List.copyOf(xids);
        }

        public FrameType type() {
            return FrameType.XA_RECOVERED;
        }

        public void writeBody(ByteBuf out) {
            out.writeInt(requestId());
            out.writeInt(xids().size());
            for (WireXid x : xids()) {
                x.write(out);
            }
        }
    }
}
