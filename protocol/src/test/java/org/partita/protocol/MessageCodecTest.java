package org.partita.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link MessageCodec} and {@link TypedValues}: round trips and hostile input. */
class MessageCodecTest {

    private static Map<String, Object> allPropertyTypes() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("null", null);
        p.put("boolTrue", true);
        p.put("boolFalse", false);
        p.put("byteMin", Byte.MIN_VALUE);
        p.put("byteMax", Byte.MAX_VALUE);
        p.put("shortMin", Short.MIN_VALUE);
        p.put("shortMax", Short.MAX_VALUE);
        p.put("intMin", Integer.MIN_VALUE);
        p.put("intMax", Integer.MAX_VALUE);
        p.put("longMin", Long.MIN_VALUE);
        p.put("longMax", Long.MAX_VALUE);
        p.put("float", 3.25f);
        p.put("floatNaN", Float.NaN);
        p.put("floatNegZero", -0.0f);
        p.put("floatInf", Float.NEGATIVE_INFINITY);
        p.put("double", Math.PI);
        p.put("doubleNaN", Double.NaN);
        p.put("doubleNegZero", -0.0d);
        p.put("doubleMin", Double.MIN_VALUE);
        p.put("string", "plain");
        p.put("emptyString", "");
        p.put("unicodeString", "gr\u00fc\u00df \u4e2d\u6587 \uD83D\uDE80 \u0000 end");
        p.put("bytes", new byte[] {0, 1, -1, 127, -128});
        p.put("emptyBytes", new byte[0]);
        p.put("char", 'x');
        p.put("charUnicode", '\u20ac');
        p.put("charLoneSurrogate", '\uD800');
        p.put("charMax", Character.MAX_VALUE);
        p.put("JMSXGroupID", "customer-42");
        p.put("", "empty name");
        p.put("\u00e9t\u00e9/\uD83D\uDE00", 1);
        return p;
    }

    static List<WireMessage> samples() {
        List<WireMessage> s = new ArrayList<>();
        s.add(new WireMessage(
                "ID:node-a:1:2",
                1_700_000_000_123L,
                "corr-1",
                "temp-queue:node-a/7",
                "queue:orders",
                "OrderCreated",
                WireMessage.PERSISTENT,
                9,
                1_700_000_060_000L,
                1_700_000_001_000L,
                allPropertyTypes(),
                WireMessage.BODY_BYTES,
                new byte[] {1, 2, 3, 4, 5}));
        s.add(new WireMessage(
                null,
                0L,
                null,
                null,
                "topic:mfg/machine/7",
                null,
                WireMessage.NON_PERSISTENT,
                0,
                0L,
                0L,
                new LinkedHashMap<>(),
                WireMessage.BODY_NONE,
                null));
        s.add(new WireMessage(
                "ID:x",
                -1L,
                "",
                "queue:replies",
                "queue:q",
                "",
                WireMessage.PERSISTENT,
                4,
                Long.MAX_VALUE,
                Long.MIN_VALUE,
                Map.of(),
                WireMessage.BODY_TEXT,
                new byte[0]));
        s.add(new WireMessage(
                "ID:\u4e2d",
                5L,
                "\uD83D\uDE80",
                null,
                "queue:\u00fcber?priority=10",
                "t\u00ffpe",
                WireMessage.NON_PERSISTENT,
                5,
                0L,
                0L,
                Map.of("\u540d\u524d", "\u5024 \uD83C\uDF63"),
                WireMessage.BODY_TEXT,
                "h\u00e9llo w\u00f6rld \uD83C\uDF0D".getBytes(StandardCharsets.UTF_8)));
        s.add(new WireMessage(
                "ID:big",
                1L,
                null,
                null,
                "queue:q",
                null,
                WireMessage.PERSISTENT,
                4,
                0L,
                0L,
                Map.of("k", "v".repeat(10_000)),
                WireMessage.BODY_OBJECT,
                new byte[100_000]));
        s.add(new WireMessage(
                "ID:body-types",
                1L,
                null,
                null,
                "temp-topic:node-b/3",
                null,
                WireMessage.PERSISTENT,
                4,
                0L,
                0L,
                Map.of(),
                127,
                new byte[] {42}));
        return s;
    }

    // ------------------------------------------------------------------ round trips

    @ParameterizedTest(name = "{index}")
    @MethodSource("samples")
    void roundTrip(WireMessage m) {
        WireMessage d = MessageCodec.decode(MessageCodec.encode(m));
        assertMessageEquals(m, d);
    }

    @ParameterizedTest(name = "{index}")
    @MethodSource("samples")
    void reencodingGivesTheSameBytes(WireMessage m) {
        byte[] bytes = MessageCodec.encode(m);
        assertArrayEquals(bytes, MessageCodec.encode(MessageCodec.decode(bytes)));
    }

    @Test
    void everyPropertyTypeKeepsItsJavaTypeAndValue() {
        WireMessage m = samples().get(0);
        WireMessage d = MessageCodec.decode(MessageCodec.encode(m));
        assertEquals(
                new ArrayList<>(m.properties().keySet()),
                new ArrayList<>(d.properties().keySet()),
                "property order is kept");
        assertTrue(d.properties().containsKey("null"));
        assertNull(d.property("null"));
        assertInstanceOf(Boolean.class, d.property("boolTrue"));
        assertInstanceOf(Byte.class, d.property("byteMin"));
        assertInstanceOf(Short.class, d.property("shortMin"));
        assertInstanceOf(Integer.class, d.property("intMin"));
        assertInstanceOf(Long.class, d.property("longMin"));
        assertInstanceOf(Float.class, d.property("float"));
        assertInstanceOf(Double.class, d.property("double"));
        assertInstanceOf(String.class, d.property("string"));
        assertInstanceOf(byte[].class, d.property("bytes"));
        assertInstanceOf(Character.class, d.property("char"));
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits((Float) d.property("floatNegZero")));
        assertTrue(Double.isNaN((Double) d.property("doubleNaN")));
        assertEquals('\uD800', d.property("charLoneSurrogate"));
        assertEquals("customer-42", d.partitionKey());
    }

    @Test
    void theMessageIdIsReadWithoutDecodingTheRest() {
        for (WireMessage m : samples()) {
            assertEquals(m.messageId(), MessageCodec.peekMessageId(MessageCodec.encode(m)));
        }
        WireMessage noId = new WireMessage(
                null, 0, null, null, "queue:q", null, WireMessage.PERSISTENT, 4, 0, 0, java.util.Map.of(), 0, null);
        assertNull(MessageCodec.peekMessageId(MessageCodec.encode(noId)));
        assertNull(MessageCodec.peekMessageId(new byte[] {9, 0, 0, 0, 1, 65}), "another layout");
        assertNull(MessageCodec.peekMessageId(new byte[] {1, 0, 0, 0, 9, 65}), "cut short");
    }

    @Test
    void emptyBodyAndNullBodyStayDistinct() {
        WireMessage empty = new WireMessage(
                "a",
                0,
                null,
                null,
                "queue:q",
                null,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                Map.of(),
                WireMessage.BODY_BYTES,
                new byte[0]);
        WireMessage none = new WireMessage(
                "a",
                0,
                null,
                null,
                "queue:q",
                null,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                Map.of(),
                WireMessage.BODY_BYTES,
                null);
        byte[] emptyBytes = MessageCodec.encode(empty);
        byte[] noneBytes = MessageCodec.encode(none);
        assertNotNull(MessageCodec.decode(emptyBytes).body());
        assertEquals(0, MessageCodec.decode(emptyBytes).body().length);
        assertNull(MessageCodec.decode(noneBytes).body());
        assertEquals(emptyBytes.length, noneBytes.length);
        assertEquals(0, emptyBytes[emptyBytes.length - 1]);
        assertEquals(-1, noneBytes[noneBytes.length - 1]);
    }

    /** The encoder sizes its array before writing: every string's UTF-8 length must be counted right. */
    @Test
    void multiByteTextInEveryStringFieldAndPropertyRoundTrips() {
        String text = "Zürich – 東京 – \uD83D\uDE80"; // two-, three- and four-byte UTF-8 forms
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("région", text);
        properties.put("bytes", new byte[] {1, 2, 3});
        properties.put("c", 'ß');
        WireMessage m = new WireMessage(
                text,
                1,
                text,
                "queue:" + text,
                "queue:" + text,
                text,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                properties,
                WireMessage.BODY_TEXT,
                text.getBytes(StandardCharsets.UTF_8));
        WireMessage d = MessageCodec.decode(MessageCodec.encode(m));
        assertEquals(text, d.messageId());
        assertEquals(text, d.correlationId());
        assertEquals("queue:" + text, d.replyTo());
        assertEquals("queue:" + text, d.destination());
        assertEquals(text, d.type());
        assertEquals(text, d.properties().get("région"));
        assertEquals('ß', d.properties().get("c"));
    }

    /** A lone surrogate has no UTF-8 form: it is sent as '?', and sizing must agree with writing. */
    @Test
    void aLoneSurrogateIsSentAsAQuestionMark() {
        WireMessage m = new WireMessage(
                "id",
                1,
                "a\uD800b",
                null,
                "queue:q",
                null,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                Map.of("p", "\uDC00"),
                WireMessage.BODY_NONE,
                null);
        WireMessage d = MessageCodec.decode(MessageCodec.encode(m));
        assertEquals("a?b", d.correlationId());
        assertEquals("?", d.properties().get("p"));
    }

    @Test
    void nullAndEmptyStringsStayDistinct() {
        WireMessage m = new WireMessage(
                "",
                0,
                null,
                null,
                "queue:q",
                "",
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                Map.of(),
                WireMessage.BODY_NONE,
                null);
        WireMessage d = MessageCodec.decode(MessageCodec.encode(m));
        assertEquals("", d.messageId());
        assertNull(d.correlationId());
        assertNull(d.replyTo());
        assertEquals("", d.type());
    }

    @Test
    void layoutIsPinned() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("a", 7);
        WireMessage m = new WireMessage(
                "i",
                2L,
                null,
                null,
                "queue:q",
                null,
                WireMessage.PERSISTENT,
                4,
                3L,
                5L,
                props,
                WireMessage.BODY_TEXT,
                new byte[] {'h'});
        ByteBuf e = Unpooled.buffer();
        e.writeByte(1); // layout version
        e.writeInt(1).writeByte('i'); // messageId
        e.writeLong(2); // timestamp
        e.writeInt(-1); // correlationId null
        e.writeInt(-1); // replyTo null
        e.writeInt(7).writeBytes("queue:q".getBytes(StandardCharsets.UTF_8)); // destination
        e.writeInt(-1); // type null
        e.writeByte(2); // delivery mode
        e.writeByte(4); // priority
        e.writeLong(3); // expiration
        e.writeLong(5); // delivery time
        e.writeInt(1); // property count
        e.writeInt(1).writeByte('a'); // name
        e.writeByte(TypedValues.INT).writeInt(7); // typed value
        e.writeByte(WireMessage.BODY_TEXT); // body type
        e.writeInt(1).writeByte('h'); // body
        assertArrayEquals(ByteBufUtil.getBytes(e), MessageCodec.encode(m));
    }

    @Test
    void typedValueCodesArePinned() {
        Object[] values = {null, true, (byte) 1, (short) 1, 1, 1L, 1f, 1d, "s", new byte[] {1}, 'c'};
        int[] codes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        for (int i = 0; i < values.length; i++) {
            ByteBuf b = Unpooled.buffer();
            TypedValues.write(b, values[i]);
            assertEquals(codes[i], b.getByte(0), String.valueOf(values[i]));
            Object back = TypedValues.read(b);
            if (values[i] instanceof byte[] bytes) {
                assertArrayEquals(bytes, (byte[]) back);
            } else {
                assertEquals(values[i], back);
            }
            assertTrue(!b.isReadable());
        }
    }

    @Test
    void unsupportedPropertyTypeIsRefusedOnEncode() {
        assertThrows(IllegalArgumentException.class, () -> TypedValues.write(Unpooled.buffer(), new Object()));
        assertThrows(
                IllegalArgumentException.class, () -> TypedValues.write(Unpooled.buffer(), java.math.BigDecimal.ONE));
    }

    // ------------------------------------------------------------------ invalid content

    private static WireMessage withModeAndPriority(int deliveryMode, int priority) {
        return new WireMessage(
                "ID:1",
                0,
                null,
                null,
                "queue:q",
                null,
                deliveryMode,
                priority,
                0,
                0,
                Map.of(),
                WireMessage.BODY_NONE,
                null);
    }

    private static void assertMalformed(byte[] bytes) {
        ProtocolException e = assertThrows(ProtocolException.class, () -> MessageCodec.decode(bytes));
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    }

    /** A blob whose priority or delivery-mode byte was set to {@code value} after encoding. */
    private static byte[] tampered(int offsetFromModeByte, int value) {
        byte[] b = MessageCodec.encode(withModeAndPriority(WireMessage.PERSISTENT, 4));
        // layout: version(1) id(4+4) timestamp(8) corr(4) replyTo(4) dest(4+7) type(4) mode(1) priority(1)
        int modeIndex = 1 + 4 + 4 + 8 + 4 + 4 + 4 + 7 + 4;
        b[modeIndex + offsetFromModeByte] = (byte) value;
        return b;
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 10, 11, 127, -128})
    void invalidPriorityIsRejected(int priority) {
        assertThrows(
                IllegalArgumentException.class,
                () -> MessageCodec.encode(withModeAndPriority(WireMessage.PERSISTENT, priority)),
                "the encoder refuses it");
        assertMalformed(tampered(1, priority));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 4, 127, -1})
    void invalidDeliveryModeIsRejected(int mode) {
        assertThrows(
                IllegalArgumentException.class,
                () -> MessageCodec.encode(withModeAndPriority(mode, 4)),
                "the encoder refuses it");
        assertMalformed(tampered(0, mode));
    }

    @Test
    void validPrioritiesAndModesAreAccepted() {
        for (int p = 0; p <= 9; p++) {
            for (int mode : new int[] {WireMessage.NON_PERSISTENT, WireMessage.PERSISTENT}) {
                WireMessage d = MessageCodec.decode(MessageCodec.encode(withModeAndPriority(mode, p)));
                assertEquals(p, d.priority());
                assertEquals(mode, d.deliveryMode());
                assertEquals(mode == WireMessage.PERSISTENT, d.persistent());
            }
        }
    }

    @Test
    void missingDestinationIsRejected() {
        assertMalformed(MessageCodec.encode(new WireMessage(
                "ID:1",
                0,
                null,
                null,
                null,
                null,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                Map.of(),
                WireMessage.BODY_NONE,
                null)));
    }

    @Test
    void unknownLayoutVersionIsRejected() {
        byte[] bytes = MessageCodec.encode(samples().get(1));
        for (int v : new int[] {0, 2, 127, -1}) {
            bytes[0] = (byte) v;
            assertMalformed(bytes);
        }
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] bytes = MessageCodec.encode(samples().get(1));
        assertMalformed(Arrays.copyOf(bytes, bytes.length + 1));
    }

    @Test
    void propertyWithoutNameIsRejected() {
        assertMalformed(blob(b -> {
            b.writeInt(1);
            b.writeInt(-1).writeByte(TypedValues.NULL);
        }));
    }

    @Test
    void unknownValueTypeIsRejected() {
        for (int type : new int[] {11, 12, 64, -1}) {
            assertMalformed(blob(b -> {
                b.writeInt(1);
                WireFormat.writeString(b, "p");
                b.writeByte(type).writeInt(0);
            }));
        }
    }

    @Test
    void invalidBooleanValueIsRejected() {
        assertMalformed(blob(b -> {
            b.writeInt(1);
            WireFormat.writeString(b, "p");
            b.writeByte(TypedValues.BOOLEAN).writeByte(2);
        }));
    }

    @Test
    void propertyCountBeyondTheBlobIsRejected() {
        for (int count : new int[] {-1, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            assertMalformed(blob(b -> b.writeInt(count)));
        }
    }

    @Test
    void emptyBlobIsRejected() {
        assertMalformed(new byte[0]);
    }

    /** A valid header (up to the property count), then {@code props}, then body type and null body. */
    private static byte[] blob(java.util.function.Consumer<ByteBuf> props) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte(1);
        WireFormat.writeString(b, "ID:1");
        b.writeLong(0);
        WireFormat.writeString(b, null);
        WireFormat.writeString(b, null);
        WireFormat.writeString(b, "queue:q");
        WireFormat.writeString(b, null);
        b.writeByte(WireMessage.PERSISTENT).writeByte(4).writeLong(0).writeLong(0);
        props.accept(b);
        b.writeByte(WireMessage.BODY_NONE).writeInt(-1);
        return ByteBufUtil.getBytes(b);
    }

    // ------------------------------------------------------------------ hostile input

    @ParameterizedTest(name = "{index}")
    @MethodSource("samples")
    void everyTruncationThrowsProtocolException(WireMessage m) {
        byte[] bytes = MessageCodec.encode(m);
        int step = bytes.length > 5_000 ? 97 : 1; // the 100 KB sample: every 97th cut plus the tail
        for (int cut = 0; cut < bytes.length; cut += (cut > bytes.length - 200 ? 1 : step)) {
            byte[] part = Arrays.copyOf(bytes, cut);
            try {
                MessageCodec.decode(part);
                fail("decoding the first " + cut + " of " + bytes.length + " bytes succeeded");
            } catch (ProtocolException e) {
                assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
            } catch (RuntimeException e) {
                throw new AssertionError("cut at " + cut + " of " + bytes.length + " threw " + e, e);
            }
        }
    }

    @Test
    void randomGarbageOnlyEverThrowsProtocolException() {
        Random random = new Random(0x5eed_cafeL);
        int decoded = 0;
        for (int i = 0; i < 5_000; i++) {
            byte[] garbage = new byte[random.nextInt(300)];
            random.nextBytes(garbage);
            if (garbage.length > 0 && random.nextBoolean()) {
                garbage[0] = 1; // get past the version check half of the time
            }
            decoded += decodeExpectingOnlyProtocolException(garbage, "garbage #" + i);
        }
        assertTrue(decoded < 5_000);
    }

    @Test
    void mutatedValidBlobsOnlyEverThrowProtocolException() {
        Random random = new Random(424242L);
        List<byte[]> valid = new ArrayList<>();
        for (WireMessage m : samples().subList(0, 4)) {
            valid.add(MessageCodec.encode(m));
        }
        for (int i = 0; i < 5_000; i++) {
            byte[] bytes = valid.get(random.nextInt(valid.size())).clone();
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                int at = random.nextInt(bytes.length);
                bytes[at] = switch (random.nextInt(4)) {
                    case 0 -> (byte) random.nextInt(256);
                    case 1 -> (byte) 0xff;
                    case 2 -> (byte) 0x7f;
                    default -> (byte) (bytes[at] + 1);
                };
            }
            if (random.nextInt(4) == 0) {
                bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length + 8));
            }
            decodeExpectingOnlyProtocolException(bytes, "mutation #" + i);
        }
    }

    private static int decodeExpectingOnlyProtocolException(byte[] bytes, String what) {
        try {
            MessageCodec.decode(bytes);
            return 1;
        } catch (ProtocolException e) {
            assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), what);
            return 0;
        } catch (Throwable t) {
            throw new AssertionError(
                    what + " (" + bytes.length + " bytes: " + ByteBufUtil.hexDump(bytes) + ") threw " + t, t);
        }
    }

    // ------------------------------------------------------------------ helpers

    static void assertMessageEquals(WireMessage e, WireMessage a) {
        assertEquals(e.messageId(), a.messageId(), "messageId");
        assertEquals(e.timestamp(), a.timestamp(), "timestamp");
        assertEquals(e.correlationId(), a.correlationId(), "correlationId");
        assertEquals(e.replyTo(), a.replyTo(), "replyTo");
        assertEquals(e.destination(), a.destination(), "destination");
        assertEquals(e.type(), a.type(), "type");
        assertEquals(e.deliveryMode(), a.deliveryMode(), "deliveryMode");
        assertEquals(e.priority(), a.priority(), "priority");
        assertEquals(e.expiration(), a.expiration(), "expiration");
        assertEquals(e.deliveryTime(), a.deliveryTime(), "deliveryTime");
        assertEquals(e.bodyType(), a.bodyType(), "bodyType");
        assertArrayEquals(e.body(), a.body(), "body");
        assertEquals(e.properties().keySet(), a.properties().keySet(), "property names");
        for (Map.Entry<String, Object> p : e.properties().entrySet()) {
            Object got = a.properties().get(p.getKey());
            if (p.getValue() instanceof byte[] b) {
                assertArrayEquals(b, (byte[]) got, p.getKey());
            } else {
                assertEquals(p.getValue(), got, p.getKey());
                if (p.getValue() != null) {
                    assertEquals(p.getValue().getClass(), got.getClass(), p.getKey());
                }
            }
        }
    }

    @Test
    void decodeHeadersReadsEverythingButTheBody() {
        WireMessage m = new WireMessage(
                "ID:9",
                7L,
                "corr",
                "queue:reply",
                "queue:q",
                "type",
                WireMessage.PERSISTENT,
                6,
                99L,
                5L,
                Map.of("JMSXGroupID", "k", "n", 3),
                WireMessage.BODY_TEXT,
                "body".getBytes(StandardCharsets.UTF_8));
        WireMessage h = MessageCodec.decodeHeaders(MessageCodec.encode(m));
        assertEquals("ID:9", h.messageId());
        assertEquals("queue:q", h.destination());
        assertEquals(6, h.priority());
        assertEquals(99L, h.expiration());
        assertEquals("k", h.partitionKey());
        assertEquals(3, h.property("n"));
        assertEquals(WireMessage.BODY_TEXT, h.bodyType());
        assertNull(h.body(), "the body is not copied");
    }

    @Test
    void decodeHeadersStillRejectsATruncatedBody() {
        byte[] full = MessageCodec.encode(new WireMessage(
                "ID:9",
                7L,
                null,
                null,
                "queue:q",
                null,
                WireMessage.PERSISTENT,
                4,
                0L,
                0L,
                Map.of(),
                WireMessage.BODY_BYTES,
                new byte[100]));
        byte[] cut = Arrays.copyOf(full, full.length - 1);
        assertThrows(ProtocolException.class, () -> MessageCodec.decodeHeaders(cut));
    }
}
