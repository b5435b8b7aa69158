package org.partita.jms.api;

import org.partita.protocol.ProviderProperties;

/** Message properties Partita sets on the messages it delivers (provider-specific, {@code JMS_PARTITA_} prefix; docs/reliability.md). */
public final class PartitaProperties {
    /**
     * On a message delivered from a partitioned queue: the partition it came from, an int
     * ({@code message.getIntProperty(PartitaProperties.PARTITION)}). Absent on other queues. It
     * describes one delivery: it is not stored, not seen by selectors, and dropped when the message
     * is sent on.
     */
    public static final String PARTITION = ProviderProperties.PARTITION;

    /** On a dead-lettered or expired message: the queue it left (a String; an AppId queue as {@code orders#billing}). */
    public static final String ORIGINAL_DESTINATION = ProviderProperties.ORIGINAL_DESTINATION;

    /** On a dead-lettered or expired message: the deliveries it had in that queue (an int). */
    public static final String DELIVERY_COUNT = ProviderProperties.DELIVERY_COUNT;

    /** On a dead-lettered or expired message: why ({@code maxDeliveryAttempts 10 reached}, {@code expired}). */
    public static final String DEAD_LETTER_REASON = ProviderProperties.DEAD_LETTER_REASON;

    /**
     * On a persistent message its producer's client sent again, on the node it failed over to,
     * because its node was lost before it answered ({@code true}): a queue with replicas kept one
     * copy of it (docs/cluster.md, "Sends made again after a node is lost").
     */
    public static final String SENT_AGAIN = ProviderProperties.SENT_AGAIN;

    /** On a dead-lettered or expired message: when, in milliseconds of the node's clock (a long). */
    public static final String DEAD_LETTERED_AT = ProviderProperties.DEAD_LETTERED_AT;

    /**
     * On a large message (docs/large-messages.md): its body's length in bytes (a long). Its body was
     * sent in parts and is kept by the node apart from the message, never whole in its heap.
     */
    public static final String LARGE_BODY_BYTES = org.partita.protocol.Protocol.LARGE_BODY_BYTES_PROPERTY;

    /**
     * Set on a {@code BytesMessage} or a {@code StreamMessage} to send with
     * {@code message.setObjectProperty(INPUT_STREAM, in)}: its body is read from this
     * {@code java.io.InputStream} (to its end, up to 2 GiB) while it is sent, in parts; the message is
     * sent as a large message whatever its size. A stream message's stream holds its body as it
     * travels (what {@link #SAVE_STREAM} writes of one). Not a property: it is not sent as one.
     */
    public static final String INPUT_STREAM = "JMS_PARTITA_InputStream";

    /**
     * Set on a received {@code BytesMessage} or {@code StreamMessage} with
     * {@code message.setObjectProperty(SAVE_STREAM, out)}: its whole body is written to this
     * {@code java.io.OutputStream}, and the call returns once it is.
     */
    public static final String SAVE_STREAM = "JMS_PARTITA_SaveStream";

    /** As {@link #SAVE_STREAM} (Artemis's asynchronous name; here too the call returns once written). */
    public static final String OUTPUT_STREAM = "JMS_PARTITA_OutputStream";

    private PartitaProperties() {}
}
