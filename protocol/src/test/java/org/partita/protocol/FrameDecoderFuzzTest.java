package org.partita.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing of {@link FrameDecoder} and {@link FrameCodec}, property by property: whatever bytes a
 * peer sends, the decoder either yields frames or fails with a protocol error the connection handler
 * answers ({@link ProtocolException}, {@link TooLongFrameException}); never an index, null-pointer,
 * negative-size or out-of-memory error, which would escape as INTERNAL or harm the node.
 *
 * <p>Inputs are random byte streams and mutations of every valid sample frame (a byte flipped, cut
 * short, extended, a length or count field set to an extreme), fed in random chunks. Each property
 * runs a fixed number of tries from a seed derived from {@code partita.fuzz.seed} (default: a new one
 * each run, printed on failure), so the test is bounded and runs in the normal build; a failure names
 * the seed and the input, and {@code -Dpartita.fuzz.seed=N} replays it. {@code -Dpartita.fuzz.tries=N}
 * runs longer.
 */
class FrameDecoderFuzzTest {
    private static final int MAX = 4096;
    private static final long SEED = Long.getLong("partita.fuzz.seed", System.nanoTime());
    private static final int TRIES = Integer.getInteger("partita.fuzz.tries", 3000);
    private static final List<Frame> SAMPLES = FrameCodecTest.samples();
    private static final List<byte[]> VALID =
            SAMPLES.stream().map(FrameCodecTest::encode).toList();

    @Test
    void arbitraryBytesDecodeOrFailWithAProtocolError() {
        Random r = random(1);
        for (int t = 0; t < TRIES; t++) {
            byte[] input = new byte[r.nextInt(600)];
            r.nextBytes(input);
            if (r.nextBoolean() && input.length >= 4) {
                // mostly a plausible length, so the body reaches FrameCodec instead of failing on the prefix
                Unpooled.wrappedBuffer(input).setInt(0, r.nextInt(input.length));
            }
            feed(new FrameDecoder(MAX), input, 1 + r.nextInt(64), t);
        }
    }

    @Test
    void mutatedValidFramesDecodeOrFailWithAProtocolError() {
        Random r = random(2);
        for (int t = 0; t < TRIES; t++) {
            byte[] body = mutate(VALID.get(r.nextInt(VALID.size())), r);
            ByteBuf in = Unpooled.wrappedBuffer(body);
            try {
                Frame f = FrameCodec.decode(in);
                // what decodes is a whole frame that encodes again (unknown error codes and bad UTF-8 are normalised)
                assertTrue(FrameCodecTest.encode(f).length > 0);
            } catch (ProtocolException expected) {
                assertEquals(ErrorCode.MALFORMED_FRAME, expected.code(), failure(t, body));
            } catch (RuntimeException | Error e) {
                fail(failure(t, body) + " threw " + e, e);
            } finally {
                in.release();
            }
        }
    }

    @Test
    void validFramesSurviveAnySplitOfTheStream() {
        Random r = random(3);
        for (int t = 0; t < TRIES / 5; t++) {
            List<Integer> picks = new ArrayList<>();
            ByteBuf stream = Unpooled.buffer();
            for (int i = 1 + r.nextInt(12); i > 0; i--) {
                int p = r.nextInt(VALID.size());
                picks.add(p);
                stream.writeInt(VALID.get(p).length).writeBytes(VALID.get(p));
            }
            byte[] bytes = new byte[stream.readableBytes()];
            stream.readBytes(bytes).release();
            List<Frame> frames = feed(new FrameDecoder(Protocol.DEFAULT_MAX_FRAME_SIZE), bytes, 1 + r.nextInt(97), t);
            assertEquals(picks.size(), frames.size(), failure(t, bytes));
            for (int i = 0; i < picks.size(); i++) {
                FrameCodecTest.assertFrameEquals(SAMPLES.get(picks.get(i)), frames.get(i));
            }
        }
    }

    /** Before the handshake a length prefix above the small first limit fails at once, and nothing after it is read. */
    @Test
    void aLengthAboveTheHandshakeLimitIsRefusedBeforeItsBodyIsBuffered() {
        Random r = random(4);
        for (int t = 0; t < TRIES / 5; t++) {
            int length = 257 + r.nextInt(Integer.MAX_VALUE - 257);
            byte[] rest = new byte[r.nextInt(300)];
            r.nextBytes(rest);
            EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(Protocol.DEFAULT_MAX_FRAME_SIZE, 256));
            try {
                try {
                    ch.writeInbound(Unpooled.buffer().writeInt(length).writeBytes(rest));
                    fail("a frame of " + length + " bytes was accepted before the handshake (seed " + SEED + ")");
                } catch (TooLongFrameException expected) {
                    // refused on the prefix alone
                }
                ch.writeInbound(Unpooled.wrappedBuffer(rest));
                assertTrue(ch.inboundMessages().isEmpty(), "nothing is decoded after the refusal");
            } finally {
                ch.finishAndReleaseAll();
            }
        }
    }

    private static Random random(int property) {
        return new Random(SEED * 31 + property);
    }

    private static String failure(int tryNumber, byte[] input) {
        return "seed " + SEED + " (-Dpartita.fuzz.seed=" + SEED + "), try " + tryNumber + ", input "
                + Arrays.toString(input);
    }

    /** One mutation of a valid frame body: a byte flipped, cut short, extended, or an int field set to an extreme. */
    private static byte[] mutate(byte[] valid, Random r) {
        byte[] c = valid.clone();
        switch (r.nextInt(4)) {
            case 0 -> c[r.nextInt(c.length)] = (byte) r.nextInt(256);
            case 1 -> c = Arrays.copyOf(c, 1 + r.nextInt(c.length));
            case 2 -> {
                byte[] extra = new byte[1 + r.nextInt(8)];
                r.nextBytes(extra);
                c = Arrays.copyOf(c, c.length + extra.length);
                System.arraycopy(extra, 0, c, valid.length, extra.length);
            }
            default -> {
                // a length or count set to an extreme: the decoder must check it before allocating
                int[] extremes = {-2, -1, 0, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x7FFFFFF0};
                if (c.length >= 5) {
                    Unpooled.wrappedBuffer(c).setInt(1 + r.nextInt(c.length - 4), extremes[r.nextInt(extremes.length)]);
                }
            }
        }
        return c;
    }

    /** Feeds {@code input} in chunks; returns what decoded, or stops at the first (expected) protocol error. */
    private static List<Frame> feed(FrameDecoder decoder, byte[] input, int chunk, int tryNumber) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        List<Frame> frames = new ArrayList<>();
        try {
            for (int at = 0; at < input.length; at += chunk) {
                int from = at;
                if (!expectingProtocolErrors(
                        () -> ch.writeInbound(
                                Unpooled.wrappedBuffer(input, from, Math.min(chunk, input.length - from))),
                        tryNumber,
                        input)) {
                    break;
                }
                drain(ch, frames);
            }
            drain(ch, frames);
            return frames;
        } finally {
            // the end of the stream decodes what is left, with the same rules
            expectingProtocolErrors(ch::finishAndReleaseAll, tryNumber, input);
        }
    }

    /** Runs a step of decoding; false if it failed with a protocol error, a test failure on any other error. */
    private static boolean expectingProtocolErrors(Runnable step, int tryNumber, byte[] input) {
        try {
            step.run();
            return true;
        } catch (DecoderException e) {
            Throwable cause = e instanceof TooLongFrameException ? e : e.getCause();
            if (!(cause instanceof ProtocolException) && !(cause instanceof TooLongFrameException)) {
                fail(failure(tryNumber, input) + " threw " + e, e);
            }
            return false;
        } catch (RuntimeException | Error e) {
            fail(failure(tryNumber, input) + " threw " + e, e);
            return false;
        }
    }

    private static void drain(EmbeddedChannel ch, List<Frame> into) {
        Object o;
        while ((o = ch.readInbound()) != null) {
            into.add(assertInstanceOf(Frame.class, o));
        }
    }
}
