package org.partita.protocol;

import java.util.Map;

/**
 * A message as it crosses the wire and sits in the store: the JMS headers the producer sets, the
 * properties (JMSX ones included) and an opaque body whose layout depends on {@code bodyType}.
 * Headers that depend on the delivery ({@code JMSRedelivered}, {@code JMSXDeliveryCount}) are not
 * part of it: they ride in the {@link Frame.Deliver} frame.
 *
 * @param destination encoded with {@link DestinationName}
 * @param replyTo     encoded with {@link DestinationName}, or null
 * @param deliveryMode {@code jakarta.jms.DeliveryMode} value: 1 non-persistent, 2 persistent
 * @param expiration  absolute epoch millis, 0 for never
 * @param deliveryTime absolute epoch millis before which the message is not delivered
 */
public record WireMessage(
        String messageId,
        long timestamp,
        String correlationId,
        String replyTo,
        String destination,
        String type,
        int deliveryMode,
        int priority,
        long expiration,
        long deliveryTime,
        Map<String, Object> properties,
        int bodyType,
        byte[] body) {

    public static final int BODY_NONE = 0;
    public static final int BODY_TEXT = 1;
    public static final int BODY_BYTES = 2;
    public static final int BODY_MAP = 3;
    public static final int BODY_STREAM = 4;
    public static final int BODY_OBJECT = 5;

    public static final int NON_PERSISTENT = 1;
    public static final int PERSISTENT = 2;

    /** This message with other properties and another body, every header the same. */
    public WireMessage with(Map<String, Object> newProperties, byte[] newBody) {
        return new WireMessage(
                messageId,
                timestamp,
                correlationId,
                replyTo,
                destination,
                type,
                deliveryMode,
                priority,
                expiration,
                deliveryTime,
                newProperties,
                bodyType,
                newBody);
    }

    public boolean persistent() {
        return deliveryMode == PERSISTENT;
    }

    public Object property(String name) {
        return properties.get(name);
    }

    /** The key that chooses a partition: JMSXGroupID, else QUEUE_PARTITION_KEY, else null. */
    public String partitionKey() {
        Object key = properties.get("JMSXGroupID");
        if (key == null) {
            key = properties.get("QUEUE_PARTITION_KEY");
        }
        return key == null ? null : key.toString();
    }
}
