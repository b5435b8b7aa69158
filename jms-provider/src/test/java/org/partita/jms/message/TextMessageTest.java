package org.partita.jms.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.TextMessage;
import java.io.Serializable;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TextMessageTest {

    @Test
    void textReadsBack() throws JMSException {
        PartitaTextMessage m = new PartitaTextMessage();
        assertNull(m.getText());
        m.setText("hello");
        assertEquals("hello", m.getText());
        assertEquals("given", new PartitaTextMessage("given").getText());
    }

    @Test
    void clearBodyRemovesText() throws JMSException {
        PartitaTextMessage m = new PartitaTextMessage("x");
        m.clearBody();
        assertNull(m.getText());
    }

    @Test
    void receivedTextIsReadOnlyUntilClearBody() throws JMSException {
        TextMessage m = (TextMessage) TestMessages.received(new PartitaTextMessage("in"));
        assertEquals("in", m.getText());
        assertThrows(MessageNotWriteableException.class, () -> m.setText("other"));
        assertEquals("in", m.getText());
        m.clearBody();
        assertNull(m.getText());
        m.setText("other");
        assertEquals("other", m.getText());
    }

    @Test
    void nonAsciiAndEmptyTextSurviveTheWire() throws JMSException {
        String text = "grüße 日本 \uD83D\uDE00";
        assertEquals(text, ((TextMessage) TestMessages.received(new PartitaTextMessage(text))).getText());
        assertEquals("", ((TextMessage) TestMessages.received(new PartitaTextMessage(""))).getText());
        assertNull(((TextMessage) TestMessages.received(new PartitaTextMessage())).getText());
    }

    @Test
    void getBodyReturnsTheTextForStringAndItsSupertypes() throws JMSException {
        PartitaTextMessage m = new PartitaTextMessage("body");
        assertEquals("body", m.getBody(String.class));
        assertEquals("body", m.getBody(CharSequence.class));
        assertEquals("body", m.getBody(Object.class));
        assertEquals("body", m.getBody(Serializable.class));
        assertTrue(m.isBodyAssignableTo(String.class));
        assertTrue(m.isBodyAssignableTo(CharSequence.class));
        assertFalse(m.isBodyAssignableTo(Integer.class));
        assertFalse(m.isBodyAssignableTo(byte[].class));
        assertThrows(MessageFormatException.class, () -> m.getBody(Integer.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(Map.class));
        assertEquals("body", m.getText()); // getBody does not change the message
    }

    @Test
    void getBodyOfEmptyTextMessageIsNullForAnyType() throws JMSException {
        PartitaTextMessage m = new PartitaTextMessage();
        assertNull(m.getBody(Integer.class));
        assertTrue(m.isBodyAssignableTo(Integer.class));
    }

    @Test
    void receivedTextMessageIsATextMessage() throws JMSException {
        assertInstanceOf(PartitaTextMessage.class, TestMessages.received(new PartitaTextMessage("a")));
    }
}
