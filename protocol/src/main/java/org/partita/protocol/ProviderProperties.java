package org.partita.protocol;

/**
 * Names of the provider-specific message properties ({@code JMS_PARTITA_} prefix, as the Jakarta
 * Messaging specification reserves {@code JMS_<vendor>} for them) that the node and the client
 * both know. Applications read them through {@code org.partita.jms.api.PartitaProperties}.
 */
public final class ProviderProperties {
    /** On a delivery from a partitioned queue: the partition it came from (an int); never stored. */
    public static final String PARTITION = "JMS_PARTITA_Partition";
    /** On a dead-lettered or expired message: the queue it left (a String). */
    public static final String ORIGINAL_DESTINATION = "JMS_PARTITA_OriginalDestination";
    /** On a dead-lettered or expired message: the deliveries it had there (an int). */
    public static final String DELIVERY_COUNT = "JMS_PARTITA_DeliveryCount";
    /** On a dead-lettered or expired message: why, in words (a String). */
    public static final String DEAD_LETTER_REASON = "JMS_PARTITA_DeadLetterReason";
    /** On a dead-lettered or expired message: when, in epoch millis of the node's clock (a long). */
    public static final String DEAD_LETTERED_AT = "JMS_PARTITA_DeadLetteredAt";

    /**
     * On a persistent message the client sent again, on the node it failed over to, because its node
     * was lost before it answered (true): a replicated queue keeps one copy of it (docs/cluster.md).
     */
    public static final String SENT_AGAIN = "JMS_PARTITA_SentAgain";

    private ProviderProperties() {}
}
