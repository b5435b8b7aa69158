package org.partita.protocol;

import static org.partita.protocol.WireFormat.readBoolean;
import static org.partita.protocol.WireFormat.readByte;
import static org.partita.protocol.WireFormat.readBytes;
import static org.partita.protocol.WireFormat.readInt;
import static org.partita.protocol.WireFormat.readLong;
import static org.partita.protocol.WireFormat.readLongs;
import static org.partita.protocol.WireFormat.readString;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes and decodes frame bodies: the part after the 4-byte length prefix, starting with the
 * type byte. Framing by length is done by {@link FrameDecoder}.
 */
public final class FrameCodec {
    private FrameCodec() {}

    public static void encode(Frame frame, ByteBuf out) {
        out.writeByte(frame.type().code());
        frame.writeBody(out);
    }

    /** Decodes one whole frame body; throws {@link ProtocolException} if it is malformed or has trailing bytes. */
    public static Frame decode(ByteBuf in) {
        FrameType type = FrameType.fromCode(readByte(in) & 0xff);
        Frame frame = switch (type) {
            case HELLO -> new Frame.Hello(readInt(in), readInt(in), readString(in), readString(in), readString(in));
            case HELLO_OK ->
                new Frame.HelloOk(
                        readInt(in), readInt(in), readString(in), readInt(in), in.isReadable() ? readInt(in) : 0);
            case OK -> new Frame.Ok(readInt(in));
            case ERROR -> new Frame.Error(readInt(in), ErrorCode.fromWire(readInt(in)), readString(in));
            case SESSION_OPEN -> new Frame.SessionOpen(readInt(in), readInt(in), readBoolean(in));
            case SESSION_CLOSE -> new Frame.SessionClose(readInt(in), readInt(in));
            case SEND ->
                new Frame.Send(
                        readInt(in), readInt(in), requireBytes(in, "message"), in.isReadable() ? readInt(in) : 0);
            case CONSUMER_OPEN ->
                new Frame.ConsumerOpen(
                        readInt(in),
                        readInt(in),
                        readInt(in),
                        requireString(in, "destination"),
                        readString(in),
                        readString(in),
                        readInt(in),
                        readInt(in),
                        in.isReadable() ? readLong(in) : 0);
            case CONSUMER_CLOSE -> new Frame.ConsumerClose(readInt(in), readInt(in));
            case CREDIT -> new Frame.Credit(readInt(in), readInt(in));
            case DELIVER ->
                new Frame.Deliver(readInt(in), readLong(in), readInt(in), readInt(in), requireBytes(in, "message"));
            case ACK -> new Frame.Ack(readInt(in), readInt(in), readLongs(in));
            case RELEASE -> new Frame.Release(readInt(in), readInt(in), readLongs(in), readLongs(in));
            case COMMIT -> new Frame.Commit(readInt(in), readInt(in));
            case RECOVER -> new Frame.Recover(readInt(in), readInt(in), readLongs(in));
            case CONSUMER_UPDATE ->
                new Frame.ConsumerUpdate(
                        readInt(in),
                        readInt(in),
                        readInt(in),
                        readInt(in),
                        readLong(in),
                        in.isReadable() ? readByte(in) : Frame.ConsumerUpdate.UNCHANGED);
            case PARTITIONS -> new Frame.Partitions(readInt(in), readInts(in));
            case ADMIN -> new Frame.Admin(readInt(in), requireString(in, "command"), readString(in));
            case ADMIN_REPLY -> new Frame.AdminReply(readInt(in), readString(in));
            case REQUEST_FAILED ->
                new Frame.RequestFailed(readInt(in), ErrorCode.fromWire(readInt(in)), readString(in));
            case RECOVERED -> new Frame.Recovered(readInt(in), readLong(in));
            case ROLLBACK -> new Frame.Rollback(readInt(in), readInt(in));
            case BROWSE -> new Frame.Browse(readInt(in), requireString(in, "destination"), readString(in));
            case BROWSE_CHUNK -> decodeBrowseChunk(in);
            case DESTINATION_OP -> new Frame.DestinationOp(readInt(in), readInt(in), readString(in));
            case CREATED -> new Frame.Created(readInt(in), readString(in));
            case PING -> new Frame.Ping(readInt(in));
            case SEND_CREDIT -> new Frame.SendCredit(readInt(in));
            case GREETING -> new Frame.Greeting(readInt(in));
            case BODY_PART ->
                new Frame.BodyPart(readInt(in), readInt(in), readLong(in), requireBytes(in, "data"), readBoolean(in));
            case BODY_READ -> new Frame.BodyRead(readInt(in), readLong(in), readLong(in), readInt(in));
            case BODY_DATA -> new Frame.BodyData(readInt(in), requireBytes(in, "data"));
            case CLOSE -> new Frame.Close(readInt(in));
            case DRAIN -> new Frame.Drain(readInt(in), readInt(in));
            case FORWARD ->
                new Frame.Forward(
                        readInt(in),
                        requireString(in, "queue"),
                        readInt(in),
                        requireBytes(in, "message"),
                        in.isReadable() ? readString(in) : null);
            case XA_START -> new Frame.XaStart(readInt(in), readInt(in), WireXid.read(in), readInt(in), readInt(in));
            case XA_END -> new Frame.XaEnd(readInt(in), readInt(in), WireXid.read(in), readInt(in));
            case XA_PREPARE -> new Frame.XaPrepare(readInt(in), WireXid.read(in));
            case XA_COMMIT -> new Frame.XaCommit(readInt(in), WireXid.read(in), readBoolean(in));
            case XA_ROLLBACK -> new Frame.XaRollback(readInt(in), WireXid.read(in));
            case XA_FORGET -> new Frame.XaForget(readInt(in), WireXid.read(in));
            case XA_RECOVER -> new Frame.XaRecover(readInt(in));
            case XA_RESULT -> new Frame.XaResult(readInt(in), readInt(in), readString(in));
            case XA_RECOVERED -> decodeXaRecovered(in);
        };
        if (in.isReadable()) {
            throw WireFormat.malformed(type + " frame has " + in.readableBytes() + " unexpected trailing bytes");
        }
        return frame;
    }

    private static int[] readInts(ByteBuf in) {
        int n = readInt(in);
        if (n < 0 || (long) n * Integer.BYTES > in.readableBytes()) {
            throw WireFormat.malformed("int array of " + n + " elements does not fit in the frame");
        }
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = in.readInt();
        }
        return values;
    }

    private static Frame decodeXaRecovered(ByteBuf in) {
        int requestId = readInt(in);
        int n = readInt(in);
        // an id takes at least 12 bytes (format id and two lengths)
        if (n < 0 || (long) n * 12 > in.readableBytes()) {
            throw WireFormat.malformed("XA recovery answer announces " + n + " transaction ids");
        }
        List<WireXid> xids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            xids.add(WireXid.read(in));
        }
        return new Frame.XaRecovered(requestId, xids);
    }

    private static Frame decodeBrowseChunk(ByteBuf in) {
        int requestId = readInt(in);
        int n = readInt(in);
        if (n < 0 || (long) n * Integer.BYTES > in.readableBytes()) {
            throw WireFormat.malformed("browse chunk announces " + n + " messages");
        }
        List<byte[]> messages = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            messages.add(requireBytes(in, "message"));
        }
        return new Frame.BrowseChunk(requestId, messages, readBoolean(in));
    }

    private static String requireString(ByteBuf in, String field) {
        String s = readString(in);
        if (s == null) {
            throw WireFormat.malformed(field + " is missing");
        }
        return s;
    }

    private static byte[] requireBytes(ByteBuf in, String field) {
        byte[] b = readBytes(in);
        if (b == null) {
            throw WireFormat.malformed(field + " is missing");
        }
        return b;
    }
}
