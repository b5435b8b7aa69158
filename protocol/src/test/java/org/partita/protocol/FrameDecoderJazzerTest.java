package org.partita.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of {@link FrameDecoder} (and so of {@link FrameCodec}) with Jazzer: whatever
 * bytes a peer sends, in whatever chunks, the decoder yields frames or fails with one of the two errors
 * the connection handler answers ({@link ProtocolException}, {@link TooLongFrameException}); never
 * an index, null-pointer, negative-size or out-of-memory error. Before the handshake, a length prefix
 * above the first limit is refused as soon as its four bytes have arrived, before any of its body,
 * and nothing after it is decoded.
 *
 * <p>The input's first byte chooses the chunk size (bits 0-5) and the decoder (bit 7: the node's
 * pre-handshake decoder with a small first limit; otherwise a small maximum frame size); the rest is
 * the byte stream. The seeds are streams of the valid sample frames of {@link FrameCodecTest}.
 *
 * <p>In the normal test run ({@code JAZZER_FUZZ} unset) it replays the seeds as regression tests;
 * jms-provider's {@code jazzer-fuzz} surefire execution (part of {@code mvn verify}) fuzzes it for a
 * bounded time. See docs/reliability.md, "Fuzzing the frame decoder".
 */
class FrameDecoderJazzerTest {
    private static final int MAX = 4096;
    private static final int FIRST_LIMIT = 256;
    private static final int PRE_HANDSHAKE = 0x80;

    @MethodSource("validStreams")
    @FuzzTest(maxDuration = "20s")
    void decodesFramesOrFailsWithAProtocolError(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int chunk = 1 + (input[0] & 0x3F);
        boolean preHandshake = (input[0] & PRE_HANDSHAKE) != 0;
        int limit = preHandshake ? FIRST_LIMIT : MAX;
        FrameDecoder decoder =
                preHandshake ? new FrameDecoder(Protocol.DEFAULT_MAX_FRAME_SIZE, FIRST_LIMIT) : new FrameDecoder(MAX);
        int refusedAt = preHandshake ? endOfFirstPrefixAbove(limit, input) : -1;

        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        try {
            for (int at = 1; at < input.length; at += chunk) {
                int end = Math.min(at + chunk, input.length);
                Throwable error = write(ch, Unpooled.wrappedBuffer(input, at, end - at));
                drainFrames(ch);
                boolean reachesRefusal = refusedAt >= at && refusedAt < end;
                if (error instanceof TooLongFrameException) {
                    if (preHandshake) {
                        assertEquals(true, reachesRefusal, "refused in the chunk that completed the oversized prefix");
                        // nothing after the refused prefix is decoded or fails
                        assertNull(write(ch, Unpooled.wrappedBuffer(input, end, input.length - end)));
                        assertNull(ch.readInbound(), "nothing is decoded after the refusal");
                    }
                    return;
                }
                if (error != null) {
                    return; // a malformed frame: the connection handler answers and closes
                }
                if (reachesRefusal) {
                    fail("a length prefix above the first limit of " + limit + " bytes was not refused");
                }
            }
        } finally {
            // the end of the stream decodes what is left, with the same rules
            try {
                ch.finishAndReleaseAll();
            } catch (DecoderException e) {
                assertProtocolError(e);
            }
        }
    }

    /** Writes one chunk; the protocol error it raised, or null. Any other error fails the test. */
    private static Throwable write(EmbeddedChannel ch, ByteBuf chunk) {
        try {
            ch.writeInbound(chunk);
            return null;
        } catch (DecoderException e) {
            return assertProtocolError(e);
        }
    }

    private static Throwable assertProtocolError(DecoderException e) {
        Throwable cause = e instanceof TooLongFrameException ? e : e.getCause();
        if (cause instanceof ProtocolException p) {
            assertEquals(ErrorCode.MALFORMED_FRAME, p.code());
            return p;
        }
        if (cause instanceof TooLongFrameException) {
            return cause;
        }
        throw new AssertionError("the decoder failed with " + e + " instead of a protocol error", e);
    }

    private static void drainFrames(EmbeddedChannel ch) {
        Object o;
        while ((o = ch.readInbound()) != null) {
            assertInstanceOf(Frame.class, o);
        }
    }

    /** Index of the last byte of the first frame-boundary length prefix above {@code limit}, or -1. */
    private static int endOfFirstPrefixAbove(int limit, byte[] input) {
        ByteBuf stream = Unpooled.wrappedBuffer(input, 1, input.length - 1);
        int at = 0;
        while (at + 4 <= stream.capacity()) {
            long length = stream.getUnsignedInt(at);
            if (length > limit) {
                return 1 + at + 3;
            }
            at += 4 + (int) length;
        }
        return -1;
    }

    /** Seeds: each valid sample frame alone, then all of them in one stream, under both decoders. */
    static Stream<Arguments> validStreams() {
        List<byte[]> bodies =
                FrameCodecTest.samples().stream().map(FrameCodecTest::encode).toList();
        List<Arguments> seeds = new ArrayList<>();
        int chunk = 0;
        for (byte[] body : bodies) {
            if (body.length <= FIRST_LIMIT) {
                seeds.add(Arguments.of((Object) stream(PRE_HANDSHAKE | chunk++ % 64, List.of(body))));
            }
            seeds.add(Arguments.of((Object) stream(chunk++ % 64, List.of(body))));
        }
        seeds.add(Arguments.of((Object) stream(7, bodies)));
        seeds.add(Arguments.of((Object) stream(
                PRE_HANDSHAKE | 63,
                bodies.stream().filter(b -> b.length <= FIRST_LIMIT).toList())));
        return seeds.stream();
    }

    private static byte[] stream(int control, List<byte[]> bodies) {
        ByteBuf buf = Unpooled.buffer().writeByte(control);
        bodies.forEach(b -> buf.writeInt(b.length).writeBytes(b));
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes).release();
        return bytes;
    }
}
