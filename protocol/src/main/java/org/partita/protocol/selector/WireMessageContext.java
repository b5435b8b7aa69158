package org.partita.protocol.selector;

import java.util.Map;
import org.partita.protocol.WireMessage;

/**
 * The identifiers of a {@link WireMessage} being delivered for the {@code deliveryCount}th time.
 *
 * <p>Of the headers, only those the specification lets selectors reference are visible:
 * JMSDeliveryMode (the string 'PERSISTENT' or 'NON_PERSISTENT'), JMSPriority (int),
 * JMSMessageID, JMSTimestamp (long), JMSCorrelationID and JMSType. JMSXDeliveryCount is the given
 * count; other JMSX and JMS_ names are properties; any other name starting with JMS (JMSExpiration,
 * JMSDeliveryTime, JMSDestination, JMSReplyTo, JMSRedelivered...) is NULL; all remaining names are
 * properties.
 */
public final class WireMessageContext implements SelectorContext {

    private final WireMessage message;
    private final int deliveryCount;

    public WireMessageContext(WireMessage message, int deliveryCount) {
        this.message = message;
        this.deliveryCount = deliveryCount;
    }

    @Override
    public Object value(String identifier) {
        if (identifier.startsWith("JMS")) {
            switch (identifier) {
                case "JMSDeliveryMode":
                    return message.deliveryMode() == WireMessage.PERSISTENT ? "PERSISTENT" : "NON_PERSISTENT";
                case "JMSPriority":
                    return message.priority();
                case "JMSMessageID":
                    return message.messageId();
                case "JMSTimestamp":
                    return message.timestamp();
                case "JMSCorrelationID":
                    return message.correlationId();
                case "JMSType":
                    return message.type();
                case "JMSXDeliveryCount":
                    return deliveryCount;
                default:
                    if (!identifier.startsWith("JMSX") && !identifier.startsWith("JMS_")) {
                        return null;
                    }
            }
        }
        Map<String, Object> properties = message.properties();
        return properties == null ? null : properties.get(identifier);
    }
}
