package org.partita.jms.api;

/** Message properties Partita sets on the messages it delivers (provider-specific, {@code JMS_PARTITA_} prefix). */
public final class PartitaProperties {
    /**
     * On a message delivered from a partitioned queue: the partition it came from, an int
     * ({@code message.getIntProperty(PartitaProperties.PARTITION)}). Absent on other queues. It
     * describes one delivery: it is not stored, not seen by selectors, and dropped when the message
     * is sent on.
     */
    public static final String PARTITION = "JMS_PARTITA_Partition";

    private PartitaProperties() {
    }
}
