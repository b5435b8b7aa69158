package org.partita.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import org.partita.protocol.WireMessage;

/** A message whose body is a String, sent as UTF-8. A null text is sent as an absent body. */
public class PartitaTextMessage extends PartitaMessage implements TextMessage {
    private String text;

    public PartitaTextMessage() {}

    public PartitaTextMessage(String text) {
        this.text = text;
    }

    @Override
    public void setText(String text) throws JMSException {
        checkBodyWritable();
        this.text = text;
    }

    @Override
    public String getText() {
        return text;
    }

    @Override
    Object bodyValue() {
        return text;
    }

    @Override
    void clearBodyContent() {
        text = null;
    }

    @Override
    int wireBodyType() {
        return WireMessage.BODY_TEXT;
    }

    @Override
    byte[] encodeBody() {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    void restoreBody(byte[] body) {
        text = body == null ? null : new String(body, StandardCharsets.UTF_8);
        super.restoreBody(body);
    }
}
