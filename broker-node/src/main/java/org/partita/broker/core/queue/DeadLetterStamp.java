package org.partita.broker.core.queue;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.ProviderProperties;
import org.partita.protocol.WireMessage;

/**
 * What a message moved to a dead-letter or expiry queue says about why it is there, in provider
 * properties of the copy that queue holds (docs/reliability.md, "Dead letters"). The headers and the
 * JMS properties, {@code JMSX...} ones included, are kept as they were; a property of these names the
 * message already had (it was dead-lettered before, moved back, and failed again) is replaced.
 *
 * @param from          the queue the message leaves: where its consumers failed it, or where it expired
 * @param deliveryCount the deliveries it had in that queue
 * @param reason        why it moved, in words
 * @param at            when, in epoch millis
 */
public record DeadLetterStamp(String from, int deliveryCount, String reason, long at) {
    /** The queue it was dead-lettered from (a String): {@code orders}, {@code orders#billing}, {@code durable:<clientId>:<name>}. */
    public static final String ORIGINAL_DESTINATION = ProviderProperties.ORIGINAL_DESTINATION;
    /** The deliveries it had there (an int); {@code JMSXDeliveryCount} counts its deliveries from the queue it is now in. */
    public static final String DELIVERY_COUNT = ProviderProperties.DELIVERY_COUNT;
    /** Why (a String): {@code maxDeliveryAttempts 10 reached}, or {@code expired}. */
    public static final String REASON = ProviderProperties.DEAD_LETTER_REASON;
    /** When it was moved (a long, epoch millis of the node's clock). */
    public static final String DEAD_LETTERED_AT = ProviderProperties.DEAD_LETTERED_AT;

    static DeadLetterStamp attemptsReached(String from, int deliveryCount, int maxDeliveryAttempts, long at) {
        return new DeadLetterStamp(from, deliveryCount, "maxDeliveryAttempts " + maxDeliveryAttempts + " reached", at);
    }

    static DeadLetterStamp expired(String from, int deliveryCount, long at) {
        return new DeadLetterStamp(from, deliveryCount, "expired", at);
    }

    /** {@code message} (whole, body included) with these properties added. */
    WireMessage applyTo(WireMessage message) {
        Map<String, Object> properties = new LinkedHashMap<>(message.properties());
        properties.put(ORIGINAL_DESTINATION, from);
        properties.put(DELIVERY_COUNT, deliveryCount);
        properties.put(REASON, reason);
        properties.put(DEAD_LETTERED_AT, at);
        return new WireMessage(
                message.messageId(),
                message.timestamp(),
                message.correlationId(),
                message.replyTo(),
                message.destination(),
                message.type(),
                message.deliveryMode(),
                message.priority(),
                message.expiration(),
                message.deliveryTime(),
                Collections.unmodifiableMap(properties),
                message.bodyType(),
                message.body());
    }

    /**
     * A new message of the node, under a new id, with the payload of {@code m} and these properties:
     * the original's payload may be shared with other queues (fan-out, topic subscriptions), which
     * must go on seeing it unchanged.
     */
    MessageRef copyOf(MessageRef m, QueueServices node) {
        byte[] encoded = MessageCodec.encode(applyTo(MessageCodec.decode(m.encoded())));
        MessageRef copy = node.newMessage(encoded, MessageCodec.decodeHeaders(encoded), null);
        node.bodyCopied(m, copy);
        return copy;
    }
}
