package org.partita.cli;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.jms.api.PartitaProperties;

/**
 * What the node says of a message it dead-lettered or expired, read from the properties it sets on
 * the copy in the dead-letter or expiry queue (docs/reliability.md, "Dead letters"). A message moved
 * there another way (by hand, or by a node older than these properties) has none: its fields are null.
 */
final class DeadLetterFields {
    /** The fields of a row, also the JSON names. */
    static final String ORIGINAL_DESTINATION = "originalDestination";

    static final String DELIVERY_COUNT = "originalDeliveryCount";
    static final String REASON = "deadLetterReason";
    static final String DEAD_LETTERED_AT = "deadLetteredAt";

    private DeadLetterFields() {}

    static Map<String, Object> of(Message m) throws JMSException {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put(ORIGINAL_DESTINATION, m.getStringProperty(PartitaProperties.ORIGINAL_DESTINATION));
        fields.put(
                DELIVERY_COUNT,
                m.propertyExists(PartitaProperties.DELIVERY_COUNT)
                        ? m.getIntProperty(PartitaProperties.DELIVERY_COUNT)
                        : null);
        fields.put(REASON, m.getStringProperty(PartitaProperties.DEAD_LETTER_REASON));
        fields.put(
                DEAD_LETTERED_AT,
                m.propertyExists(PartitaProperties.DEAD_LETTERED_AT)
                        ? QueueCommand.instant(m.getLongProperty(PartitaProperties.DEAD_LETTERED_AT))
                        : null);
        return fields;
    }
}
