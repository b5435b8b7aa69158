package org.partita.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class DestinationNameTest {

    @Test
    void parsesEachKind() {
        assertEquals(new DestinationName(DestinationName.Kind.QUEUE, "orders"), DestinationName.parse("queue:orders"));
        assertEquals(new DestinationName(DestinationName.Kind.TOPIC, "news"), DestinationName.parse("topic:news"));
        assertEquals(
                new DestinationName(DestinationName.Kind.TEMP_QUEUE, "node-a/1"),
                DestinationName.parse("temp-queue:node-a/1"));
        assertEquals(
                new DestinationName(DestinationName.Kind.TEMP_TOPIC, "node-a/2"),
                DestinationName.parse("temp-topic:node-a/2"));
    }

    @Test
    void encodesEachKind() {
        assertEquals("queue:orders", new DestinationName(DestinationName.Kind.QUEUE, "orders").encode());
        assertEquals("topic:news", new DestinationName(DestinationName.Kind.TOPIC, "news").encode());
        assertEquals("temp-queue:t1", new DestinationName(DestinationName.Kind.TEMP_QUEUE, "t1").encode());
        assertEquals("temp-topic:t2", new DestinationName(DestinationName.Kind.TEMP_TOPIC, "t2").encode());
        assertEquals("queue:orders", new DestinationName(DestinationName.Kind.QUEUE, "orders").toString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "queue:orders",
                "queue:orders?partitions=8",
                "queue:orders?priority=10&appId=billing",
                "queue:orders?",
                "topic:mfg/machine/7",
                "topic:mfg/machine/>",
                "topic:mfg/*/temperature",
                "topic:a/b/c?x=1",
                "temp-queue:node-a:42",
                "temp-topic:node-a/9",
                "queue:\u00fcber/\u4e2d\u6587 \uD83D\uDE80",
                "queue: spaced ",
                "queue:?",
                "queue:/",
                "topic:>",
            })
    void parseAndEncodeRoundTrip(String encoded) {
        DestinationName d = DestinationName.parse(encoded);
        assertEquals(encoded, d.encode());
        assertEquals(d, DestinationName.parse(d.encode()));
    }

    @Test
    void optionsAndLevelsStayInTheName() {
        DestinationName q = DestinationName.parse("queue:orders?priority=10&appId=billing");
        assertEquals(DestinationName.Kind.QUEUE, q.kind());
        assertEquals("orders?priority=10&appId=billing", q.name());

        DestinationName t = DestinationName.parse("topic:mfg/machine/>");
        assertEquals(DestinationName.Kind.TOPIC, t.kind());
        assertEquals("mfg/machine/>", t.name());
    }

    @Test
    void onlyTheFirstColonSeparatesTheKind() {
        DestinationName d = DestinationName.parse("queue:a:b:c");
        assertEquals(DestinationName.Kind.QUEUE, d.kind());
        assertEquals("a:b:c", d.name());
    }

    @Test
    void kindProperties() {
        assertTrue(DestinationName.Kind.QUEUE.isQueue());
        assertTrue(DestinationName.Kind.TEMP_QUEUE.isQueue());
        assertFalse(DestinationName.Kind.TOPIC.isQueue());
        assertFalse(DestinationName.Kind.TEMP_TOPIC.isQueue());
        assertTrue(DestinationName.Kind.TEMP_QUEUE.isTemporary());
        assertTrue(DestinationName.Kind.TEMP_TOPIC.isTemporary());
        assertFalse(DestinationName.Kind.QUEUE.isTemporary());
        assertFalse(DestinationName.Kind.TOPIC.isTemporary());
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(
            strings = {
                "orders",
                ":orders",
                "queue:",
                "topic:",
                "temp-queue:",
                "Queue:orders",
                "QUEUE:orders",
                "queues:orders",
                " queue:orders",
                "temp_queue:x",
                "tempqueue:x",
                "temp-:x",
                "destination:x",
                ":",
                "::",
                "queue",
                "orders?queue:x",
            })
    void rejectsBadInput(String encoded) {
        ProtocolException e = assertThrows(ProtocolException.class, () -> DestinationName.parse(encoded));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    }

    @Test
    void constructorRejectsEmptyOrNullName() {
        assertEquals(
                ErrorCode.INVALID_REQUEST,
                assertThrows(ProtocolException.class, () -> new DestinationName(DestinationName.Kind.QUEUE, ""))
                        .code());
        assertEquals(
                ErrorCode.INVALID_REQUEST,
                assertThrows(ProtocolException.class, () -> new DestinationName(DestinationName.Kind.TOPIC, null))
                        .code());
    }
}
