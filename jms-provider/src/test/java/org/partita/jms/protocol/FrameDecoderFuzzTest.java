package org.partita.jms.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Property-based fuzzing (jqwik) of {@link FrameDecoder} and {@link FrameCodec}: whatever bytes a
 * peer sends, the decoder either yields frames or fails with a protocol error the connection handler
 * knows ({@link ProtocolException}, {@link TooLongFrameException}); never an index, null-pointer,
 * negative-size or out-of-memory error, which would escape as INTERNAL or harm the node. The number of
 * tries is fixed, so the test is bounded in time and runs in the normal build.
 */
class FrameDecoderFuzzTest {
    private static final int MAX = 4096;
    private static final List<byte[]> VALID = FrameCodecTest.samples().stream().map(FrameCodecTest::encode).toList();

    @Property(tries = 2000)
    void arbitraryBytesDecodeOrFailWithAProtocolError(@ForAll @Size(max = 600) byte[] input,
                                                       @ForAll @IntRange(min = 1, max = 64) int chunk) {
        feed(new FrameDecoder(MAX), input, chunk);
    }

    @Property(tries = 2000)
    void mutatedValidFramesDecodeOrFailWithAProtocolError(@ForAll("mutatedBodies") byte[] body) {
        ByteBuf in = Unpooled.wrappedBuffer(body);
        try {
            Frame f = FrameCodec.decode(in);
            // what decodes is a whole frame that encodes again (unknown error codes and bad UTF-8 are normalised)
            assertTrue(FrameCodecTest.encode(f).length > 0);
        } catch (ProtocolException expected) {
            assertEquals(ErrorCode.MALFORMED_FRAME, expected.code());
        } catch (RuntimeException | Error e) {
            fail("decoding " + Arrays.toString(body) + " threw " + e, e);
        } finally {
            in.release();
        }
    }

    @Property(tries = 500)
    void validFramesSurviveAnySplitOfTheStream(@ForAll("validStreams") List<Integer> picks,
                                              @ForAll @IntRange(min = 1, max = 97) int chunk) {
        ByteBuf stream = Unpooled.buffer();
        for (int p : picks) {
            byte[] body = VALID.get(p);
            stream.writeInt(body.length).writeBytes(body);
        }
        byte[] bytes = new byte[stream.readableBytes()];
        stream.readBytes(bytes).release();
        List<Frame> frames = feed(new FrameDecoder(Protocol.DEFAULT_MAX_FRAME_SIZE), bytes, chunk);
        assertEquals(picks.size(), frames.size());
        for (int i = 0; i < picks.size(); i++) {
            FrameCodecTest.assertFrameEquals(FrameCodecTest.samples().get(picks.get(i)), frames.get(i));
        }
    }

    /** Before the handshake a length prefix above the small first limit fails at once, and nothing after it is read. */
    @Property(tries = 500)
    void aLengthAboveTheHandshakeLimitIsRefusedBeforeItsBodyIsBuffered(
            @ForAll @IntRange(min = 257, max = Integer.MAX_VALUE) int length, @ForAll @Size(max = 300) byte[] rest) {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(Protocol.DEFAULT_MAX_FRAME_SIZE, 256));
        try {
            ByteBuf in = Unpooled.buffer().writeInt(length).writeBytes(rest);
            try {
                ch.writeInbound(in);
                fail("a frame of " + length + " bytes was accepted before the handshake");
            } catch (TooLongFrameException expected) {
                // refused on the prefix alone
            }
            ch.writeInbound(Unpooled.wrappedBuffer(rest));
            assertTrue(ch.inboundMessages().isEmpty(), "nothing is decoded after the refusal");
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Provide
    Arbitrary<byte[]> mutatedBodies() {
        Arbitrary<byte[]> valid = Arbitraries.of(VALID);
        Arbitrary<byte[]> flipped = Combinators.combine(valid, Arbitraries.integers().between(0, 10_000),
                Arbitraries.bytes()).as((b, at, v) -> {
                    byte[] c = b.clone();
                    c[at % c.length] = v;
                    return c;
                });
        Arbitrary<byte[]> truncated = Combinators.combine(valid, Arbitraries.integers().between(0, 10_000))
                .as((b, at) -> Arrays.copyOf(b, Math.max(1, at % b.length)));
        Arbitrary<byte[]> extended = Combinators.combine(valid, Arbitraries.bytes().array(byte[].class).ofMaxSize(8))
                .as((b, extra) -> {
                    byte[] c = Arrays.copyOf(b, b.length + extra.length);
                    System.arraycopy(extra, 0, c, b.length, extra.length);
                    return c;
                });
        // a length or count field set to an extreme: the decoder must check it before allocating
        Arbitrary<byte[]> hostileInt = Combinators.combine(valid, Arbitraries.integers().between(0, 10_000),
                Arbitraries.of(-2, -1, 0, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x7FFFFFF0)).as((b, at, v) -> {
                    byte[] c = b.clone();
                    if (c.length >= 5) {
                        int pos = 1 + at % (c.length - 4);
                        Unpooled.wrappedBuffer(c).setInt(pos, v);
                    }
                    return c;
                });
        return Arbitraries.oneOf(flipped, truncated, extended, hostileInt);
    }

    @Provide
    Arbitrary<List<Integer>> validStreams() {
        return Arbitraries.integers().between(0, VALID.size() - 1).list().ofMinSize(1).ofMaxSize(12);
    }

    /** Feeds {@code input} in chunks; returns what decoded, or stops at the first (expected) protocol error. */
    private static List<Frame> feed(FrameDecoder decoder, byte[] input, int chunk) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        List<Frame> frames = new ArrayList<>();
        try {
            for (int at = 0; at < input.length; at += chunk) {
                try {
                    ch.writeInbound(Unpooled.wrappedBuffer(input, at, Math.min(chunk, input.length - at)));
                } catch (DecoderException e) {
                    Throwable cause = e instanceof TooLongFrameException ? e : e.getCause();
                    if (!(cause instanceof ProtocolException) && !(cause instanceof TooLongFrameException)) {
                        fail("decoding " + Arrays.toString(input) + " threw " + e, e);
                    }
                    drain(ch, frames);
                    return frames;
                } catch (RuntimeException | Error e) {
                    fail("decoding " + Arrays.toString(input) + " threw " + e, e);
                }
                drain(ch, frames);
            }
            return frames;
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    private static void drain(EmbeddedChannel ch, List<Frame> into) {
        Object o;
        while ((o = ch.readInbound()) != null) {
            into.add(assertInstanceOf(Frame.class, o));
        }
    }
}
