package org.partita.jms.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.jms.api.PartitaProperties;
import org.partita.protocol.WireMessage;

/** The stream names of large messages on the message classes: what they accept, refuse and do. */
class LargeStreamsTest {

    @Test
    void aBytesMessageTakesItsBodyFromAStreamWhichIsNotAProperty() throws Exception {
        PartitaBytesMessage m = new PartitaBytesMessage();
        InputStream in = new ByteArrayInputStream(new byte[] {1, 2, 3});
        m.setObjectProperty(PartitaProperties.INPUT_STREAM, in);
        assertSame(in, m.streamedBody());
        assertFalse(m.propertyExists(PartitaProperties.INPUT_STREAM), "not sent as a property");
        assertEquals(0, m.toWire().body().length, "the body goes in parts, not in the message");
    }

    @Test
    void otherMessagesAndOtherValuesAreRefusedClearly() {
        PartitaTextMessage text = new PartitaTextMessage();
        MessageFormatException e = assertThrows(
                MessageFormatException.class,
                () -> text.setObjectProperty(PartitaProperties.INPUT_STREAM, new ByteArrayInputStream(new byte[0])));
        assertEquals(
                "only a BytesMessage or a StreamMessage takes its body from a stream, not a TextMessage",
                e.getMessage());
        assertThrows(
                MessageFormatException.class,
                () -> new PartitaBytesMessage().setObjectProperty(PartitaProperties.INPUT_STREAM, "not a stream"));
        assertThrows(
                MessageFormatException.class,
                () -> new PartitaBytesMessage().setObjectProperty(PartitaProperties.SAVE_STREAM, null));
    }

    @Test
    void aBodyIsSavedOnlyFromAReadableMessage() throws Exception {
        PartitaBytesMessage writing = new PartitaBytesMessage();
        writing.writeBytes(new byte[] {4, 5});
        assertThrows(
                MessageNotReadableException.class,
                () -> writing.setObjectProperty(PartitaProperties.SAVE_STREAM, new ByteArrayOutputStream()));
        writing.reset();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writing.setObjectProperty(PartitaProperties.SAVE_STREAM, out);
        assertArrayEquals(new byte[] {4, 5}, out.toByteArray());
    }

    @Test
    void aReceivedLargeBodyInAFileIsReadSavedAndSentOnAsAStream() throws Exception {
        byte[] body = new byte[100_000];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 7);
        }
        LargeBody.InFile file = LargeBody.newFile(body.length);
        Files.write(file.file(), body);
        WireMessage wire = new WireMessage(
                "ID:1", 0, null, null, null, null, 2, 4, 0, 0, Map.of(), WireMessage.BODY_BYTES, new byte[0]);
        PartitaBytesMessage m = (PartitaBytesMessage) MessageFactory.fromWire(wire, 1, -1, file);
        assertEquals(body.length, m.getBodyLength());
        assertEquals(body[0], m.readByte());
        assertEquals(body[1], m.readByte());
        m.reset(); // read again from the start: the first reader is closed, a new one opened
        ByteArrayOutputStream saved = new ByteArrayOutputStream();
        m.setObjectProperty(PartitaProperties.OUTPUT_STREAM, saved);
        assertArrayEquals(body, saved.toByteArray());
        assertArrayEquals(body, m.getBody(byte[].class));
        assertThrows(MessageNotWriteableException.class, () -> m.writeByte((byte) 1));
        try (InputStream again = m.streamedBody()) {
            assertArrayEquals(body, again.readAllBytes(), "sent on, the received body is streamed again");
        }
        m.clearBody();
        assertNull(m.streamedBody());
        assertEquals(
                Collections.emptyList(),
                Collections.list(m.getPropertyNames()).stream()
                        .filter(n -> n.toString().contains("Stream"))
                        .toList());
    }

    /**
     * A stream message saved to a stream gives the body as it travels; sent again from that stream it
     * is the same message: a receiver reads the same values.
     */
    @Test
    void aStreamMessageSavedToAStreamIsSentAgainFromItWithTheSameValues() throws Exception {
        PartitaStreamMessage original = new PartitaStreamMessage();
        original.writeString("order-7");
        original.writeLong(42L);
        original.writeBytes(new byte[] {9, 8, 7});
        original.reset();
        ByteArrayOutputStream saved = new ByteArrayOutputStream();
        original.setObjectProperty(PartitaProperties.SAVE_STREAM, saved);

        PartitaStreamMessage again = new PartitaStreamMessage();
        InputStream in = new ByteArrayInputStream(saved.toByteArray());
        again.setObjectProperty(PartitaProperties.INPUT_STREAM, in);
        assertSame(in, again.streamedBody());
        assertFalse(again.propertyExists(PartitaProperties.INPUT_STREAM), "not sent as a property");
        assertEquals(0, again.toWire().body().length, "the body goes in parts, not in the message");

        // as a receiver gets it: the parts in a file of the client's own
        LargeBody.InFile file = LargeBody.newFile(saved.size());
        Files.write(file.file(), saved.toByteArray());
        WireMessage wire = new WireMessage(
                "ID:2", 0, null, null, null, null, 2, 4, 0, 0, Map.of(), WireMessage.BODY_STREAM, new byte[0]);
        PartitaStreamMessage received = (PartitaStreamMessage) MessageFactory.fromWire(wire, 1, -1, file);
        ByteArrayOutputStream savedAgain = new ByteArrayOutputStream();
        received.setObjectProperty(PartitaProperties.SAVE_STREAM, savedAgain);
        assertArrayEquals(saved.toByteArray(), savedAgain.toByteArray(), "saved as it travels, values not decoded");
        assertEquals("order-7", received.readString());
        assertEquals(42L, received.readLong());
        assertArrayEquals(new byte[] {9, 8, 7}, (byte[]) received.readObject());
        assertThrows(jakarta.jms.MessageEOFException.class, received::readObject);
        assertThrows(
                MessageNotWriteableException.class,
                () -> received.setObjectProperty(
                        PartitaProperties.INPUT_STREAM, new ByteArrayInputStream(new byte[0])));
    }

    /** A stream message whose body came from a stream that does not hold stream values says so when read. */
    @Test
    void aStreamMessageWhoseBodyIsNotInTheValuesLayoutFailsToReadClearly() throws Exception {
        LargeBody.InFile file = LargeBody.newFile(5);
        Files.write(file.file(), new byte[] {0, 0, 0, 9, 1});
        WireMessage wire = new WireMessage(
                "ID:3", 0, null, null, null, null, 2, 4, 0, 0, Map.of(), WireMessage.BODY_STREAM, new byte[0]);
        PartitaStreamMessage received = (PartitaStreamMessage) MessageFactory.fromWire(wire, 1, -1, file);
        MessageFormatException e = assertThrows(MessageFormatException.class, received::readObject);
        assertTrue(e.getMessage().startsWith("the body does not hold stream values"), e.getMessage());
        ByteArrayOutputStream saved = new ByteArrayOutputStream();
        received.setObjectProperty(PartitaProperties.SAVE_STREAM, saved);
        assertArrayEquals(new byte[] {0, 0, 0, 9, 1}, saved.toByteArray(), "still saved as it came");
    }
}
