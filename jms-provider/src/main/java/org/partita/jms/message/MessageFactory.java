package org.partita.jms.message;

import org.partita.protocol.ErrorCode;
import org.partita.protocol.ProtocolException;
import org.partita.protocol.WireMessage;

/** Rebuilds the message a consumer receives from its wire form and the count of the delivery. */
public final class MessageFactory {
    private MessageFactory() {}

    /**
     * The received message, of the subclass matching the body type, with properties and body
     * read-only, JMSRedelivered set when {@code deliveryCount > 1} and JMSXDeliveryCount readable as
     * an int property.
     *
     * @throws ProtocolException if the body type is unknown or a map or stream body is malformed
     */
    public static PartitaMessage fromWire(WireMessage m, int deliveryCount) {
        return fromWire(m, deliveryCount, -1);
    }

    /** As {@link #fromWire(WireMessage, int)}, from partition {@code partition} of a partitioned queue (-1: none). */
    public static PartitaMessage fromWire(WireMessage m, int deliveryCount, int partition) {
        PartitaMessage message = newMessage(m.bodyType());
        message.restoreHeaders(m, deliveryCount, partition);
        message.restoreBody(m.body());
        return message;
    }

    /**
     * A received large message (property {@code JMS_PARTITA_LargeBodyBytes}), its body read in parts
     * into {@code body}.
     */
    public static PartitaMessage fromWire(WireMessage m, int deliveryCount, int partition, LargeBody body)
            throws java.io.IOException {
        PartitaMessage message = newMessage(m.bodyType());
        message.restoreHeaders(m, deliveryCount, partition);
        message.restoreLargeBody(body);
        return message;
    }

    private static PartitaMessage newMessage(int bodyType) {
        return switch (bodyType) {
            case WireMessage.BODY_NONE -> new PartitaMessage();
            case WireMessage.BODY_TEXT -> new PartitaTextMessage();
            case WireMessage.BODY_BYTES -> new PartitaBytesMessage();
            case WireMessage.BODY_MAP -> new PartitaMapMessage();
            case WireMessage.BODY_STREAM -> new PartitaStreamMessage();
            case WireMessage.BODY_OBJECT -> new PartitaObjectMessage();
            default -> throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "unknown body type " + bodyType);
        };
    }
}
