package org.partita.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Round trip of every frame type through {@link FrameCodec}, plus a few pinned byte layouts. */
class FrameCodecTest {

    /** One or more samples of every frame type, with edge values and null optional fields. */
    static List<Frame> samples() {
        byte[] msg = MessageCodec.encode(new WireMessage(
                "ID:1",
                42L,
                null,
                null,
                "queue:orders",
                null,
                WireMessage.PERSISTENT,
                4,
                0L,
                0L,
                java.util.Map.of("k", "v"),
                WireMessage.BODY_TEXT,
                "hello".getBytes(StandardCharsets.UTF_8)));
        List<Frame> f = new ArrayList<>();
        f.add(new Frame.Hello(1, Protocol.VERSION, "alice", "s3cr\u00e9t", "client-\u00fc\u4e2d"));
        f.add(new Frame.Hello(Integer.MAX_VALUE, 99, null, null, null));
        f.add(new Frame.Hello(2, 1, "", "", ""));
        f.add(new Frame.HelloOk(1, Protocol.VERSION, "node-a", Protocol.DEFAULT_MAX_FRAME_SIZE));
        f.add(new Frame.HelloOk(-1, 0, null, 0));
        f.add(new Frame.HelloOk(2, Protocol.DELIVERY_LEASE_VERSION, "node-b", 1024, 250));
        f.add(new Frame.Greeting(1));
        f.add(new Frame.Greeting(Integer.MAX_VALUE));
        f.add(new Frame.Ok(7));
        f.add(new Frame.Ok(0));
        f.add(new Frame.Ok(Integer.MIN_VALUE));
        for (ErrorCode code : ErrorCode.values()) {
            f.add(new Frame.Error(code.ordinal(), code, "because " + code));
        }
        f.add(new Frame.Error(0, ErrorCode.MALFORMED_FRAME, null));
        f.add(new Frame.SessionOpen(3, 1, true));
        f.add(new Frame.SessionOpen(4, 2, false));
        f.add(new Frame.SessionClose(5, 1));
        f.add(new Frame.Send(6, 1, msg));
        f.add(new Frame.Send(0, 1, new byte[0]));
        f.add(new Frame.Send(9, 2, msg, 17)); // a large message's head, naming its upload
        f.add(new Frame.BodyPart(10, 17, 0, new byte[] {1, 2, 3}, false));
        f.add(new Frame.BodyPart(11, 17, 3L << 30, new byte[0], true));
        f.add(new Frame.BodyRead(12, 5L, 1L << 32, 1 << 20));
        f.add(new Frame.BodyData(12, new byte[] {9, 8}));
        f.add(new Frame.ConsumerOpen(
                7,
                1,
                10,
                "topic:mfg/machine/>",
                "color = 'red' AND weight > 2",
                "sub-1",
                Frame.FLAG_DURABLE | Frame.FLAG_SHARED | Frame.FLAG_NO_LOCAL,
                500));
        f.add(new Frame.ConsumerOpen(8, 2, 11, "queue:orders?priority=10&appId=billing", null, null, 0, 0));
        f.add(new Frame.ConsumerOpen(9, 2, 12, "queue:large", null, null, 0, 500, 4L << 20));
        f.add(new Frame.ConsumerClose(9, 10));
        f.add(new Frame.Credit(10, 250));
        f.add(new Frame.Credit(11, 0));
        f.add(new Frame.Deliver(10, Long.MAX_VALUE, 1, -1, msg));
        f.add(new Frame.Deliver(10, Long.MIN_VALUE, 17, 7, new byte[] {0, -1, 127, -128}));
        f.add(new Frame.Ack(11, 1, new long[] {1L, 2L, Long.MAX_VALUE, -5L}));
        f.add(new Frame.Ack(0, 1, new long[0]));
        f.add(new Frame.Release(12, 1, new long[] {3L}, new long[] {4L, 5L}));
        f.add(new Frame.Release(13, 1, new long[0], new long[0]));
        f.add(new Frame.Commit(14, 1));
        f.add(new Frame.Rollback(15, 1));
        f.add(new Frame.Browse(16, "queue:orders", "JMSPriority > 4"));
        f.add(new Frame.Browse(17, "queue:orders", null));
        f.add(new Frame.BrowseChunk(16, List.of(msg, new byte[0], new byte[] {9}), false));
        f.add(new Frame.BrowseChunk(16, List.of(), true));
        f.add(new Frame.DestinationOp(18, Frame.OP_CREATE_TEMP_QUEUE, null));
        f.add(new Frame.DestinationOp(19, Frame.OP_CREATE_TEMP_TOPIC, null));
        f.add(new Frame.DestinationOp(20, Frame.OP_DELETE_TEMP, "temp-queue:node-a/1"));
        f.add(new Frame.DestinationOp(21, Frame.OP_UNSUBSCRIBE, "sub-1"));
        f.add(new Frame.Created(18, "temp-queue:node-a/1"));
        f.add(new Frame.Created(19, null));
        f.add(new Frame.SendCredit(1 << 20));
        f.add(new Frame.SendCredit(0));
        f.add(new Frame.Ping(22));
        f.add(new Frame.Ping(0));
        f.add(new Frame.Close(23));
        f.add(new Frame.Recover(24, 1, new long[] {7L, 9L}));
        f.add(new Frame.Recover(25, 2, new long[0]));
        f.add(new Frame.Recovered(24, 123L));
        f.add(new Frame.ConsumerUpdate(26, 10, 7, 20, 1L << 20));
        f.add(new Frame.ConsumerUpdate(27, 10, Integer.MIN_VALUE, -1, -1L));
        f.add(new Frame.ConsumerUpdate(28, 10, Integer.MIN_VALUE, -1, -1L, (byte) 1));
        f.add(new Frame.Partitions(10, new int[] {0, 3, 5}));
        f.add(new Frame.Partitions(11, new int[0]));
        f.add(new Frame.Admin(28, "queue.update", "orders?partitions=8"));
        f.add(new Frame.Admin(29, "queue.list", null));
        f.add(new Frame.AdminReply(28, "name=orders\npartitions=8\n"));
        f.add(new Frame.RequestFailed(FrameType.SEND.code(), ErrorCode.RESOURCE_EXHAUSTED, "queue 'q' is full"));
        f.add(new Frame.Drain(29, 4));
        f.add(new Frame.Forward(30, "orders", 1, new byte[] {1, 2, 3}));
        f.add(new Frame.Forward(30, "orders", 1, new byte[] {1, 2, 3}, "6 partitions on node1,node2,node3"));
        WireXid xid = new WireXid(0x1234, new byte[] {1, 2, 3}, new byte[] {9});
        WireXid noQualifier = new WireXid(-1, new byte[64], new byte[0]);
        f.add(new Frame.XaStart(30, 1, xid, 0x00200000, 60));
        f.add(new Frame.XaEnd(31, 1, xid, 0x04000000));
        f.add(new Frame.XaPrepare(32, noQualifier));
        f.add(new Frame.XaCommit(33, xid, true));
        f.add(new Frame.XaCommit(34, xid, false));
        f.add(new Frame.XaRollback(35, xid));
        f.add(new Frame.XaForget(36, xid));
        f.add(new Frame.XaRecover(37));
        f.add(new Frame.XaResult(32, 3, null));
        f.add(new Frame.XaResult(33, -4, "unknown branch"));
        f.add(new Frame.XaRecovered(37, List.of(xid, noQualifier)));
        f.add(new Frame.XaRecovered(38, List.of()));
        return f;
    }

    @Test
    void samplesCoverEveryFrameType() {
        Set<FrameType> covered = samples().stream().map(Frame::type).collect(Collectors.toSet());
        assertEquals(EnumSet.allOf(FrameType.class), covered);
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("samples")
    void roundTrip(Frame frame) {
        ByteBuf buf = Unpooled.buffer();
        try {
            FrameCodec.encode(frame, buf);
            assertEquals(frame.type().code(), buf.getUnsignedByte(0), "first byte is the type code");
            Frame decoded = FrameCodec.decode(buf);
            assertFalse(buf.isReadable(), "decode consumes the whole body");
            assertFrameEquals(frame, decoded);
        } finally {
            buf.release();
        }
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("samples")
    void encodingIsDeterministicAndReencodesIdentically(Frame frame) {
        byte[] first = encode(frame);
        Frame decoded = FrameCodec.decode(Unpooled.wrappedBuffer(first));
        assertArrayEquals(first, encode(decoded));
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("samples")
    void everyTruncationIsMalformed(Frame frame) {
        byte[] whole = encode(frame);
        for (int cut = 0; cut < whole.length; cut++) {
            if (cut == whole.length - 1
                    && frame instanceof Frame.ConsumerUpdate u
                    && u.spare() != Frame.ConsumerUpdate.UNCHANGED) {
                continue; // without its optional last byte it is the same update from an older sender
            }
            if (cut == whole.length - Integer.BYTES
                    && frame instanceof Frame.HelloOk ok
                    && ok.version() >= Protocol.DELIVERY_LEASE_VERSION) {
                continue; // without its lease it is a version-3 node's answer, which has none
            }
            if (cut == whole.length - Long.BYTES && frame instanceof Frame.ConsumerOpen o && o.windowBytes() != 0) {
                continue; // without its byte window it is a version-4 client's open, which has none
            }
            if (cut == whole.length - Integer.BYTES && frame instanceof Frame.Send send && send.uploadId() != 0) {
                continue; // without its upload it is the send of a message whose body is in it
            }
            if (frame instanceof Frame.Forward f
                    && f.layout() != null
                    && cut == whole.length - Integer.BYTES - f.layout().getBytes(StandardCharsets.UTF_8).length) {
                continue; // without its layout it is a forward from a node that does not say it
            }
            ByteBuf part = Unpooled.wrappedBuffer(whole, 0, cut);
            ProtocolException e = assertThrows(
                    ProtocolException.class, () -> FrameCodec.decode(part), "cut at " + cut + " of " + whole.length);
            assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
        }
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("samples")
    void trailingByteIsMalformed(Frame frame) {
        byte[] whole = encode(frame);
        // a consumer update may end with one optional byte: one more than that is malformed
        int optional = frame instanceof Frame.ConsumerUpdate u && u.spare() == Frame.ConsumerUpdate.UNCHANGED ? 1 : 0;
        byte[] longer = java.util.Arrays.copyOf(whole, whole.length + 1 + optional);
        ProtocolException e =
                assertThrows(ProtocolException.class, () -> FrameCodec.decode(Unpooled.wrappedBuffer(longer)));
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    }

    @Test
    void aConsumerUpdateWithoutItsOptionalSpareByteLeavesSpareUnchanged() {
        Frame.ConsumerUpdate plain = new Frame.ConsumerUpdate(5, 9, 3, -1, -1L);
        Frame.ConsumerUpdate spare = new Frame.ConsumerUpdate(5, 9, Integer.MIN_VALUE, -1, -1L, (byte) 1);
        assertEquals(encode(spare).length - 1, encode(plain).length, "clients (and older ones) do not send the byte");
        assertEquals(
                Frame.ConsumerUpdate.UNCHANGED,
                ((Frame.ConsumerUpdate) FrameCodec.decode(Unpooled.wrappedBuffer(encode(plain)))).spare());
        assertEquals(1, ((Frame.ConsumerUpdate) FrameCodec.decode(Unpooled.wrappedBuffer(encode(spare)))).spare());
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void everyErrorCodeSurvivesTheWire(ErrorCode code) {
        Frame.Error decoded =
                (Frame.Error) FrameCodec.decode(Unpooled.wrappedBuffer(encode(new Frame.Error(1, code, "x"))));
        assertSame(code, decoded.code());
        assertSame(code, ErrorCode.fromWire(code.wire()));
    }

    @Test
    void unknownErrorCodeDecodesAsInternal() {
        ByteBuf buf = Unpooled.buffer();
        buf.writeByte(FrameType.ERROR.code()).writeInt(5).writeInt(9999);
        WireFormat.writeString(buf, "future code");
        Frame.Error e = (Frame.Error) FrameCodec.decode(buf);
        assertEquals(ErrorCode.INTERNAL, e.code());
        assertEquals("future code", e.message());
    }

    @Test
    void frameTypeCodesArePinned() {
        int[] expected = {
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
            30, 31, 32, 33, 34, 35, 40, 41, 42, 43, 44, 45, 46, 47, 48
        };
        FrameType[] types = {
            FrameType.HELLO,
            FrameType.HELLO_OK,
            FrameType.OK,
            FrameType.ERROR,
            FrameType.SESSION_OPEN,
            FrameType.SESSION_CLOSE,
            FrameType.SEND,
            FrameType.CONSUMER_OPEN,
            FrameType.CONSUMER_CLOSE,
            FrameType.CREDIT,
            FrameType.DELIVER,
            FrameType.ACK,
            FrameType.RELEASE,
            FrameType.COMMIT,
            FrameType.ROLLBACK,
            FrameType.BROWSE,
            FrameType.BROWSE_CHUNK,
            FrameType.DESTINATION_OP,
            FrameType.CREATED,
            FrameType.PING,
            FrameType.CLOSE,
            FrameType.RECOVER,
            FrameType.RECOVERED,
            FrameType.CONSUMER_UPDATE,
            FrameType.PARTITIONS,
            FrameType.ADMIN,
            FrameType.ADMIN_REPLY,
            FrameType.REQUEST_FAILED,
            FrameType.DRAIN,
            FrameType.FORWARD,
            FrameType.SEND_CREDIT,
            FrameType.GREETING,
            FrameType.BODY_PART,
            FrameType.BODY_READ,
            FrameType.BODY_DATA,
            FrameType.XA_START,
            FrameType.XA_END,
            FrameType.XA_PREPARE,
            FrameType.XA_COMMIT,
            FrameType.XA_ROLLBACK,
            FrameType.XA_FORGET,
            FrameType.XA_RECOVER,
            FrameType.XA_RESULT,
            FrameType.XA_RECOVERED
        };
        assertEquals(FrameType.values().length, types.length);
        for (int i = 0; i < types.length; i++) {
            assertEquals(expected[i], types[i].code(), types[i].name());
            assertSame(types[i], FrameType.fromCode(expected[i]));
        }
    }

    @Test
    void errorCodeNumbersArePinned() {
        ErrorCode[] codes = {
            ErrorCode.INTERNAL,
            ErrorCode.MALFORMED_FRAME,
            ErrorCode.FRAME_TOO_LARGE,
            ErrorCode.UNSUPPORTED_VERSION,
            ErrorCode.AUTHENTICATION_FAILED,
            ErrorCode.NOT_AUTHORIZED,
            ErrorCode.UNKNOWN_DESTINATION,
            ErrorCode.ILLEGAL_STATE,
            ErrorCode.INVALID_SELECTOR,
            ErrorCode.INVALID_CLIENT_ID,
            ErrorCode.RESOURCE_EXHAUSTED,
            ErrorCode.TRANSACTION_ROLLED_BACK,
            ErrorCode.INVALID_REQUEST,
            ErrorCode.SHUTTING_DOWN,
            ErrorCode.INVALID_DESTINATION,
            ErrorCode.IN_DOUBT
        };
        assertEquals(ErrorCode.values().length, codes.length);
        for (int i = 0; i < codes.length; i++) {
            assertEquals(i + 1, codes[i].wire(), codes[i].name());
        }
    }

    @Test
    void unknownFrameTypesAreMalformed() {
        for (int code : new int[] {0, 33, 39, 49, 63, 64, 127, 128, 255}) {
            ProtocolException e = assertThrows(
                    ProtocolException.class,
                    () -> FrameCodec.decode(Unpooled.wrappedBuffer(new byte[] {(byte) code, 0, 0, 0, 0})));
            assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
        }
        assertThrows(ProtocolException.class, () -> FrameType.fromCode(-1));
        assertThrows(ProtocolException.class, () -> FrameType.fromCode(1000));
    }

    @Test
    void xidLayoutIsFormatIdThenTwoByteArrays() {
        byte[] b = encode(new Frame.XaRollback(1, new WireXid(7, new byte[] {5}, new byte[0])));
        assertArrayEquals(new byte[] {44, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1, 5, 0, 0, 0, 0}, b);
    }

    @Test
    void oversizedXidIsMalformed() {
        ByteBuf buf = Unpooled.buffer();
        buf.writeByte(FrameType.XA_PREPARE.code()).writeInt(1).writeInt(0);
        WireFormat.writeBytes(buf, new byte[65]);
        WireFormat.writeBytes(buf, new byte[0]);
        ProtocolException e = assertThrows(ProtocolException.class, () -> FrameCodec.decode(buf));
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    }

    @Test
    void xidTextAndBytesRoundTrip() {
        WireXid x = new WireXid(131077, new byte[] {0, 1, (byte) 0xff}, new byte[] {7});
        assertEquals("131077:0001ff:07", x.toString());
        assertEquals(x, WireXid.parse(x.toString()));
        assertEquals(x, WireXid.fromBytes(x.toBytes()));
        assertThrows(IllegalArgumentException.class, () -> WireXid.parse("1:zz:00"));
        assertThrows(IllegalArgumentException.class, () -> WireXid.parse("1:00"));
    }

    @Test
    void greetingLayoutIsTypeThenTheHellosRequestId() {
        assertArrayEquals(new byte[] {32, 0, 0, 0, 7}, encode(new Frame.Greeting(7)));
    }

    @Test
    void okLayoutIsTypeThenBigEndianRequestId() {
        assertArrayEquals(new byte[] {3, 0x01, 0x02, 0x03, 0x04}, encode(new Frame.Ok(0x01020304)));
    }

    @Test
    void stringLayoutIsUtf8ByteLengthThenBytesAndNullIsMinusOne() {
        byte[] created = encode(new Frame.Created(1, "\u00e9"));
        assertArrayEquals(new byte[] {19, 0, 0, 0, 1, 0, 0, 0, 2, (byte) 0xc3, (byte) 0xa9}, created);
        byte[] nullName = encode(new Frame.Created(1, null));
        assertArrayEquals(new byte[] {19, 0, 0, 0, 1, -1, -1, -1, -1}, nullName);
    }

    @Test
    void releaseLayoutIsTwoCountedLongArrays() {
        byte[] b = encode(new Frame.Release(1, 2, new long[] {3}, new long[0]));
        ByteBuf expected = Unpooled.buffer();
        expected.writeByte(13).writeInt(1).writeInt(2).writeInt(1).writeLong(3).writeInt(0);
        assertArrayEquals(ByteBufUtil.getBytes(expected), b);
    }

    @Test
    void aConsumerWithoutAByteWindowIsOpenedAsAVersion4ClientOpensIt() {
        // A node before version 5 refuses trailing bytes: an open without a window must end at its credit.
        byte[] plain = encode(new Frame.ConsumerOpen(3, 1, 7, "queue:q", null, null, 0, 100));
        byte[] windowed = encode(new Frame.ConsumerOpen(3, 1, 7, "queue:q", null, null, 0, 100, 1 << 20));
        assertEquals(plain.length + Long.BYTES, windowed.length);
        assertEquals(100, Unpooled.wrappedBuffer(plain).getInt(plain.length - Integer.BYTES));
        assertEquals(0, ((Frame.ConsumerOpen) FrameCodec.decode(Unpooled.wrappedBuffer(plain))).windowBytes());
        assertEquals(1 << 20, ((Frame.ConsumerOpen) FrameCodec.decode(Unpooled.wrappedBuffer(windowed))).windowBytes());
    }

    @Test
    void consumerFlagsAreReadable() {
        Frame.ConsumerOpen all = new Frame.ConsumerOpen(
                1, 1, 1, "topic:t", null, "s", Frame.FLAG_DURABLE | Frame.FLAG_SHARED | Frame.FLAG_NO_LOCAL, 1);
        assertTrue(all.durable());
        assertTrue(all.shared());
        assertTrue(all.noLocal());
        Frame.ConsumerOpen none = new Frame.ConsumerOpen(1, 1, 1, "queue:q", null, null, 0, 1);
        assertFalse(none.durable());
        assertFalse(none.shared());
        assertFalse(none.noLocal());
    }

    @Test
    void helloToStringHidesThePassword() {
        String s = new Frame.Hello(1, 1, "alice", "topsecret", "c").toString();
        assertFalse(s.contains("topsecret"), s);
    }

    @Test
    void decodedStringsAndArraysAreIndependentOfTheBuffer() {
        byte[] payload = {1, 2, 3};
        ByteBuf buf = Unpooled.buffer();
        FrameCodec.encode(new Frame.Send(1, 1, payload), buf);
        Frame.Send decoded = (Frame.Send) FrameCodec.decode(buf);
        buf.setByte(13, 99); // first payload byte: type 1 + requestId 4 + sessionId 4 + length 4
        assertArrayEquals(new byte[] {1, 2, 3}, decoded.message());
    }

    // ---------------------------------------------------------------- helpers

    static byte[] encode(Frame frame) {
        ByteBuf buf = Unpooled.buffer();
        try {
            FrameCodec.encode(frame, buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** Compares two frames component by component; arrays and lists of arrays by content. */
    static void assertFrameEquals(Frame expected, Frame actual) {
        assertNotNull(actual);
        assertSame(expected.getClass(), actual.getClass());
        assertInstanceOf(Record.class, expected);
        for (RecordComponent c : expected.getClass().getRecordComponents()) {
            Object e = get(c, expected);
            Object a = get(c, actual);
            String what = expected.type() + "." + c.getName();
            if (e instanceof byte[] eb) {
                assertArrayEquals(eb, (byte[]) a, what);
            } else if (e instanceof long[] el) {
                assertArrayEquals(el, (long[]) a, what);
            } else if (e instanceof int[] ei) {
                assertArrayEquals(ei, (int[]) a, what);
            } else if (e instanceof List<?> el) {
                List<?> al = (List<?>) a;
                assertEquals(el.size(), al.size(), what + " size");
                for (int i = 0; i < el.size(); i++) {
                    if (el.get(i) instanceof byte[] eb) {
                        assertArrayEquals(eb, (byte[]) al.get(i), what + "[" + i + "]");
                    } else {
                        assertEquals(el.get(i), al.get(i), what + "[" + i + "]");
                    }
                }
            } else {
                assertEquals(e, a, what);
            }
        }
    }

    private static Object get(RecordComponent c, Object record) {
        try {
            return c.getAccessor().invoke(record);
        } catch (ReflectiveOperationException ex) {
            throw new AssertionError(ex);
        }
    }
}
