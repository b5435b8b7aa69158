package org.partita.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link FrameDecoder} and {@link FrameEncoder} in a Netty pipeline ({@link EmbeddedChannel}). */
class FrameDecoderTest {
    private static final int MAX = 1024;
    /** Body bytes of a SEND frame besides the message: type 1 + requestId 4 + sessionId 4 + length 4. */
    private static final int SEND_OVERHEAD = 13;

    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void closeChannels() {
        for (EmbeddedChannel ch : channels) {
            ch.finishAndReleaseAll();
        }
    }

    private EmbeddedChannel channel(int maxFrameSize) {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(maxFrameSize), new FrameEncoder(maxFrameSize));
        channels.add(ch);
        return ch;
    }

    /** Wire bytes of frames (length prefix included) as produced by {@link FrameEncoder}. */
    private byte[] wire(Frame... frames) {
        EmbeddedChannel enc = new EmbeddedChannel(new FrameEncoder(Protocol.DEFAULT_MAX_FRAME_SIZE));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Frame f : frames) {
            enc.writeOutbound(f);
            ByteBuf b;
            while ((b = enc.readOutbound()) != null) {
                out.writeBytes(ByteBufUtil.getBytes(b));
                b.release();
            }
        }
        enc.finishAndReleaseAll();
        return out.toByteArray();
    }

    /** A length-prefixed frame whose body is written by hand, for malformed input. */
    private static byte[] raw(Consumer<ByteBuf> body) {
        ByteBuf b = Unpooled.buffer();
        b.writeInt(0);
        body.accept(b);
        b.setInt(0, b.readableBytes() - 4);
        byte[] bytes = ByteBufUtil.getBytes(b);
        b.release();
        return bytes;
    }

    private static List<Frame> sampleFrames() {
        byte[] msg = "payload".getBytes(StandardCharsets.UTF_8);
        return List.of(
                new Frame.Hello(1, Protocol.VERSION, "user", "pw", "client"),
                new Frame.Send(2, 1, msg),
                new Frame.ConsumerOpen(3, 1, 7, "queue:orders", "a > 1", null, 0, 100),
                new Frame.Deliver(7, 99L, 1, -1, msg),
                new Frame.Ack(0, 1, new long[] {99L}),
                new Frame.BrowseChunk(4, List.of(msg, msg), true),
                new Frame.Ping(5),
                new Frame.Close(6));
    }

    private static List<Frame> drain(EmbeddedChannel ch) {
        List<Frame> out = new ArrayList<>();
        Object o;
        while ((o = ch.readInbound()) != null) {
            out.add((Frame) o);
        }
        return out;
    }

    private static void assertSameFrames(List<Frame> expected, List<Frame> actual) {
        assertEquals(expected.size(), actual.size(), "number of frames");
        for (int i = 0; i < expected.size(); i++) {
            FrameCodecTest.assertFrameEquals(expected.get(i), actual.get(i));
        }
    }

    // ------------------------------------------------------------------ reassembly

    @Test
    void frameWrittenOneByteAtATimeReassembles() {
        Frame f = new Frame.ConsumerOpen(3, 1, 7, "topic:mfg/machine/>", "x = 'y'", "sub", Frame.FLAG_DURABLE, 10);
        byte[] bytes = wire(f);
        EmbeddedChannel ch = channel(MAX);
        for (int i = 0; i < bytes.length - 1; i++) {
            ch.writeInbound(Unpooled.wrappedBuffer(bytes, i, 1));
            assertNull(ch.readInbound(), "no frame before byte " + (i + 1) + " of " + bytes.length);
        }
        ch.writeInbound(Unpooled.wrappedBuffer(bytes, bytes.length - 1, 1));
        assertSameFrames(List.of(f), drain(ch));
    }

    @Test
    void framesSplitAtRandomBoundariesReassembleInOrder() {
        List<Frame> frames = sampleFrames();
        byte[] bytes = wire(frames.toArray(Frame[]::new));
        Random random = new Random(20240601L);
        for (int round = 0; round < 50; round++) {
            EmbeddedChannel ch = channel(MAX);
            List<Frame> got = new ArrayList<>();
            int pos = 0;
            while (pos < bytes.length) {
                int n = Math.min(bytes.length - pos, 1 + random.nextInt(9));
                ch.writeInbound(Unpooled.wrappedBuffer(bytes, pos, n));
                got.addAll(drain(ch));
                pos += n;
            }
            assertSameFrames(frames, got);
        }
    }

    @Test
    void severalFramesInOneBufferComeOutInOrder() {
        List<Frame> frames = sampleFrames();
        EmbeddedChannel ch = channel(MAX);
        ch.writeInbound(Unpooled.wrappedBuffer(wire(frames.toArray(Frame[]::new))));
        assertSameFrames(frames, drain(ch));
    }

    @Test
    void oneBufferWithWholeFramesAndAPartialOne() {
        Frame a = new Frame.Ping(1);
        Frame b = new Frame.Ok(2);
        Frame c = new Frame.Created(3, "temp-queue:n/1");
        byte[] bytes = wire(a, b, c);
        int cut = bytes.length - 3;
        EmbeddedChannel ch = channel(MAX);
        ch.writeInbound(Unpooled.wrappedBuffer(bytes, 0, cut));
        assertSameFrames(List.of(a, b), drain(ch));
        ch.writeInbound(Unpooled.wrappedBuffer(bytes, cut, bytes.length - cut));
        assertSameFrames(List.of(c), drain(ch));
    }

    @Test
    void truncatedInputYieldsNothingUntilCompleted() {
        Frame f = new Frame.Send(9, 1, new byte[200]);
        byte[] bytes = wire(f);
        for (int cut : new int[] {1, 3, 4, 5, 20, bytes.length - 1}) {
            EmbeddedChannel ch = channel(MAX);
            ch.writeInbound(Unpooled.wrappedBuffer(bytes, 0, cut));
            assertNull(ch.readInbound(), "cut " + cut);
            ch.writeInbound(Unpooled.wrappedBuffer(bytes, cut, bytes.length - cut));
            assertSameFrames(List.of(f), drain(ch));
        }
    }

    @Test
    void encoderWritesBigEndianLengthExcludingItself() {
        byte[] bytes = wire(new Frame.Ok(0x0A0B0C0D));
        assertArrayEquals(new byte[] {0, 0, 0, 5, 3, 0x0A, 0x0B, 0x0C, 0x0D}, bytes);
    }

    @Test
    void encoderThenDecoderInOnePipelineRoundTrips() {
        EmbeddedChannel ch = channel(MAX);
        List<Frame> frames = sampleFrames();
        for (Frame f : frames) {
            ch.writeOutbound(f);
        }
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            ch.writeInbound(b);
        }
        assertSameFrames(frames, drain(ch));
    }

    // ------------------------------------------------------------------ malformed frames

    private void assertMalformed(byte[] bytes) {
        EmbeddedChannel ch = channel(MAX);
        DecoderException e = assertThrows(DecoderException.class, () -> ch.writeInbound(Unpooled.wrappedBuffer(bytes)));
        ProtocolException cause = assertInstanceOf(ProtocolException.class, e.getCause(), String.valueOf(e));
        assertEquals(ErrorCode.MALFORMED_FRAME, cause.code());
        assertNull(ch.readInbound());
    }

    @Test
    void unknownTypeByteIsMalformed() {
        for (int type : new int[] {0, 22, 33, 39, 99, 255}) {
            assertMalformed(raw(b -> b.writeByte(type).writeInt(1)));
        }
    }

    @Test
    void emptyFrameIsMalformed() {
        assertMalformed(new byte[] {0, 0, 0, 0});
    }

    @Test
    void stringLongerThanTheFrameIsMalformed() {
        assertMalformed(raw(b -> b.writeByte(FrameType.CREATED.code())
                .writeInt(1)
                .writeInt(100)
                .writeBytes("short".getBytes(StandardCharsets.UTF_8))));
        assertMalformed(
                raw(b -> b.writeByte(FrameType.CREATED.code()).writeInt(1).writeInt(Integer.MAX_VALUE)));
    }

    @Test
    void byteArrayLongerThanTheFrameIsMalformed() {
        assertMalformed(raw(b -> b.writeByte(FrameType.SEND.code())
                .writeInt(1)
                .writeInt(1)
                .writeInt(50)
                .writeBytes(new byte[10])));
    }

    @Test
    void negativeLengthsAreMalformed() {
        // string length below -1
        assertMalformed(
                raw(b -> b.writeByte(FrameType.CREATED.code()).writeInt(1).writeInt(-2)));
        assertMalformed(
                raw(b -> b.writeByte(FrameType.CREATED.code()).writeInt(1).writeInt(Integer.MIN_VALUE)));
        // byte array length below -1
        assertMalformed(raw(
                b -> b.writeByte(FrameType.SEND.code()).writeInt(1).writeInt(1).writeInt(-7)));
        // long array count negative
        assertMalformed(raw(
                b -> b.writeByte(FrameType.ACK.code()).writeInt(1).writeInt(1).writeInt(-1)));
        // browse chunk message count negative
        assertMalformed(raw(b -> b.writeByte(FrameType.BROWSE_CHUNK.code())
                .writeInt(1)
                .writeInt(-1)
                .writeBoolean(true)));
    }

    @Test
    void countsLargerThanTheFrameAreMalformed() {
        assertMalformed(raw(b -> b.writeByte(FrameType.ACK.code())
                .writeInt(1)
                .writeInt(1)
                .writeInt(3)
                .writeLong(1)
                .writeLong(2)));
        assertMalformed(raw(b -> b.writeByte(FrameType.RELEASE.code())
                .writeInt(1)
                .writeInt(1)
                .writeInt(0)
                .writeInt(Integer.MAX_VALUE)));
        assertMalformed(raw(b -> b.writeByte(FrameType.BROWSE_CHUNK.code())
                .writeInt(1)
                .writeInt(Integer.MAX_VALUE)
                .writeBoolean(true)));
    }

    @Test
    void trailingBytesAreMalformed() {
        assertMalformed(raw(b -> b.writeByte(FrameType.PING.code()).writeInt(1).writeByte(0)));
        assertMalformed(raw(b -> b.writeByte(FrameType.CLOSE.code()).writeInt(1).writeLong(0)));
    }

    @Test
    void missingFieldsAreMalformed() {
        assertMalformed(raw(b -> b.writeByte(FrameType.OK.code()).writeShort(1)));
        assertMalformed(
                raw(b -> b.writeByte(FrameType.DELIVER.code()).writeInt(1).writeInt(2)));
        assertMalformed(raw(b -> b.writeByte(FrameType.PING.code())));
    }

    @Test
    void invalidBooleanByteIsMalformed() {
        assertMalformed(raw(b -> b.writeByte(FrameType.SESSION_OPEN.code())
                .writeInt(1)
                .writeInt(1)
                .writeByte(2)));
        assertMalformed(raw(b -> b.writeByte(FrameType.SESSION_OPEN.code())
                .writeInt(1)
                .writeInt(1)
                .writeByte(-1)));
        assertMalformed(raw(b -> b.writeByte(FrameType.BROWSE_CHUNK.code())
                .writeInt(1)
                .writeInt(0)
                .writeByte(7)));
    }

    @Test
    void missingRequiredFieldIsMalformed() {
        // SEND without a message (null byte array)
        assertMalformed(raw(
                b -> b.writeByte(FrameType.SEND.code()).writeInt(1).writeInt(1).writeInt(-1)));
        // DELIVER without a message
        assertMalformed(raw(b -> b.writeByte(FrameType.DELIVER.code())
                .writeInt(1)
                .writeLong(1)
                .writeInt(1)
                .writeInt(-1)));
        // CONSUMER_OPEN without a destination
        assertMalformed(raw(b -> {
            b.writeByte(FrameType.CONSUMER_OPEN.code()).writeInt(1).writeInt(1).writeInt(1);
            WireFormat.writeString(b, null);
            WireFormat.writeString(b, null);
            WireFormat.writeString(b, null);
            b.writeInt(0).writeInt(10);
        }));
        // BROWSE without a destination
        assertMalformed(raw(b -> {
            b.writeByte(FrameType.BROWSE.code()).writeInt(1);
            WireFormat.writeString(b, null);
            WireFormat.writeString(b, null);
        }));
        // BROWSE_CHUNK with a null message inside
        assertMalformed(raw(b -> b.writeByte(FrameType.BROWSE_CHUNK.code())
                .writeInt(1)
                .writeInt(1)
                .writeInt(-1)
                .writeBoolean(true)));
    }

    @Test
    void aGoodFrameBeforeAMalformedOneIsStillDelivered() {
        byte[] good = wire(new Frame.Ping(1));
        byte[] bad = raw(b -> b.writeByte(0));
        byte[] both = new byte[good.length + bad.length];
        System.arraycopy(good, 0, both, 0, good.length);
        System.arraycopy(bad, 0, both, good.length, bad.length);
        EmbeddedChannel ch = channel(MAX);
        assertThrows(DecoderException.class, () -> ch.writeInbound(Unpooled.wrappedBuffer(both)));
        assertSameFrames(List.of(new Frame.Ping(1)), drain(ch));
    }

    // ------------------------------------------------------------------ maximum frame size

    @Test
    void frameOfExactlyTheMaximumSizeIsAccepted() {
        Frame f = new Frame.Send(1, 1, new byte[MAX - SEND_OVERHEAD]);
        EmbeddedChannel ch = channel(MAX);
        ch.writeOutbound(f);
        ByteBuf out = ch.readOutbound();
        assertEquals(MAX, out.getInt(0));
        assertEquals(MAX + 4, out.readableBytes());
        ch.writeInbound(out);
        assertSameFrames(List.of(f), drain(ch));
    }

    @Test
    void lengthPrefixAboveTheMaximumFailsBeforeTheBodyArrives() {
        EmbeddedChannel ch = channel(MAX);
        ByteBuf header = Unpooled.buffer().writeInt(MAX + 1).writeByte(FrameType.SEND.code());
        assertThrows(TooLongFrameException.class, () -> ch.writeInbound(header));
        assertNull(ch.readInbound());
    }

    @Test
    void hugeLengthPrefixFailsImmediatelyWithoutBuffering() {
        EmbeddedChannel ch = channel(Protocol.DEFAULT_MAX_FRAME_SIZE);
        // 2 GiB - 1 announced, only the prefix sent: must fail now, not wait for (or allocate) the body
        ByteBuf header = Unpooled.buffer().writeInt(Integer.MAX_VALUE);
        assertThrows(TooLongFrameException.class, () -> ch.writeInbound(header));
        assertNull(ch.readInbound());
    }

    @Test
    void lengthPrefixWithTheTopBitSetIsTooLong() {
        // the prefix is read as unsigned: 0xFFFFFFFF is about 4 GiB, not -1
        EmbeddedChannel ch = channel(MAX);
        ByteBuf header = Unpooled.buffer().writeInt(-1).writeByte(1);
        assertThrows(TooLongFrameException.class, () -> ch.writeInbound(header));
    }

    @Test
    void oversizedFrameSentInPiecesFailsOnTheFirstPiece() {
        byte[] body = new byte[4 * MAX];
        ByteBuf first = Unpooled.buffer().writeInt(body.length).writeBytes(body, 0, 16);
        EmbeddedChannel ch = channel(MAX);
        assertThrows(TooLongFrameException.class, () -> ch.writeInbound(first));
    }

    @Test
    void encoderRefusesAFrameAboveTheMaximum() {
        EmbeddedChannel ch = channel(MAX);
        Frame tooBig = new Frame.Send(1, 1, new byte[MAX - SEND_OVERHEAD + 1]);
        EncoderException e = assertThrows(EncoderException.class, () -> ch.writeOutbound(tooBig));
        ProtocolException cause = assertInstanceOf(ProtocolException.class, e.getCause());
        assertEquals(ErrorCode.FRAME_TOO_LARGE, cause.code());
        assertNull(ch.readOutbound(), "nothing of the refused frame reaches the wire");
        // the encoder stays usable for the next frame
        ch.writeOutbound(new Frame.Ping(2));
        ByteBuf next = ch.readOutbound();
        assertArrayEquals(
                new byte[] {0, 0, 0, 5, (byte) FrameType.PING.code(), 0, 0, 0, 2}, ByteBufUtil.getBytes(next));
        next.release();
    }

    @Test
    void encoderRefusalIsReportedOnTheWriteFuture() {
        EmbeddedChannel ch = channel(MAX);
        var future = ch.write(new Frame.BrowseChunk(1, List.of(new byte[MAX]), true));
        ch.flush();
        assertTrue(future.isDone());
        ProtocolException cause =
                assertInstanceOf(ProtocolException.class, future.cause().getCause());
        assertEquals(ErrorCode.FRAME_TOO_LARGE, cause.code());
        assertNull(ch.readOutbound());
    }
}
