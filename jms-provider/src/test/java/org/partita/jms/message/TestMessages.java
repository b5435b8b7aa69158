package org.partita.jms.message;

import jakarta.jms.JMSException;
import org.partita.jms.destination.PartitaQueue;
import org.partita.protocol.MessageCodec;

/** Helpers shared by the message tests. */
final class TestMessages {
    private TestMessages() {}

    /** What a consumer would get: the message through the full wire encoding, then rebuilt. */
    static PartitaMessage received(PartitaMessage sent, int deliveryCount) throws JMSException {
        if (sent.getJMSDestination() == null) {
            sent.setJMSDestination(new PartitaQueue("test"));
        }
        return MessageFactory.fromWire(MessageCodec.decode(MessageCodec.encode(sent.toWire())), deliveryCount);
    }

    static PartitaMessage received(PartitaMessage sent) throws JMSException {
        return received(sent, 1);
    }
}
