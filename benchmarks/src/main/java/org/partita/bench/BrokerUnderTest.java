package org.partita.bench;

import jakarta.jms.ConnectionFactory;

/**
 * One embedded broker started for one scenario run. The scenarios only see plain JMS through
 * {@link #connectionFactory()}; the rest tells them how to name things and how much the broker stored.
 */
public interface BrokerUnderTest extends AutoCloseable {

    ConnectionFactory connectionFactory();

    /** Where clients connect, in the broker's own URL form (for a client in another process). */
    String url();

    /**
     * The queue name to use. {@code partitaOptions} (for example {@code partitions=8}) are written
     * into the name for Partita, which creates the queue on first use with them; Artemis gets the plain
     * name (its message groups need no configuration).
     */
    String queueName(String base, String partitaOptions);

    /**
     * Bytes the broker's durable store holds now, as this broker can best tell; compare before and after.
     * Not measured (-1) by default: only S5 reads it, and it runs on brokers of one server only.
     */
    default long storedBytes() {
        return -1;
    }

    /** How {@link #storedBytes()} is measured, for the report. */
    default String storedBytesMethod() {
        return "not measured for several servers";
    }

    /** Extra figures about the store (payload rows and bytes, for Partita); empty if none. */
    default String storeDetails() {
        return "";
    }

    /** How the broker's store has committed so far (Partita's figures); null for a broker that does not tell. */
    default CommitFigures commitFigures() {
        return null;
    }

    @Override
    void close();
}
