package org.partita.jms.destination;

import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;
import java.io.Serializable;
import java.util.Objects;
import org.partita.protocol.DestinationName;

/**
 * Base of Partita's destinations. A destination is only a name (with optional options after
 * {@code ?}, see docs/destinations.md); the broker decides what it is.
 */
public abstract class PartitaDestination implements Destination, Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;

    protected PartitaDestination(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("destination name must not be empty");
        }
        this.name = name;
    }

    /** The name as given, options included. */
    public String name() {
        return name;
    }

    public abstract DestinationName.Kind kind();

    public DestinationName toWire() {
        return new DestinationName(kind(), name);
    }

    public String encode() {
        return toWire().encode();
    }

    /** Rebuilds a destination from its wire form; temporary ones come back without an owner. */
    public static PartitaDestination fromWire(String encoded) {
        if (encoded == null) {
            return null;
        }
        DestinationName d = DestinationName.parse(encoded);
        return switch (d.kind()) {
            case QUEUE -> new PartitaQueue(d.name());
            case TOPIC -> new PartitaTopic(d.name());
            case TEMP_QUEUE -> new PartitaTemporaryQueue(d.name(), null);
            case TEMP_TOPIC -> new PartitaTemporaryTopic(d.name(), null);
        };
    }

    /**
     * Any destination as a Partita one, by its queue or topic name: those of another provider, of
     * a server's administered objects, or of another copy of these classes (a Jakarta EE server's
     * module and an application's each load their own). A name is all a destination means to Partita.
     *
     * @throws InvalidDestinationException if it is neither a queue nor a topic, or has no name
     */
    public static PartitaDestination of(Destination d) throws JMSException {
        if (d == null || d instanceof PartitaDestination) {
            return (PartitaDestination) d;
        }
        try {
            // temporary types first: they extend Queue and Topic
            if (d instanceof TemporaryQueue q) {
                return new PartitaTemporaryQueue(q.getQueueName(), null);
            }
            if (d instanceof TemporaryTopic t) {
                return new PartitaTemporaryTopic(t.getTopicName(), null);
            }
            if (d instanceof Queue q) {
                return new PartitaQueue(q.getQueueName());
            }
            if (d instanceof Topic t) {
                return new PartitaTopic(t.getTopicName());
            }
        } catch (IllegalArgumentException e) {
            InvalidDestinationException ide = new InvalidDestinationException(e.getMessage() + ": " + d);
            ide.initCause(e);
            throw ide;
        }
        throw new InvalidDestinationException(
                "destination " + d + " (" + d.getClass().getName() + ") is neither a queue nor a topic");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitaDestination other && other.kind() == kind() && other.name.equals(name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind(), name);
    }

    @Override
    public String toString() {
        return encode();
    }
}
