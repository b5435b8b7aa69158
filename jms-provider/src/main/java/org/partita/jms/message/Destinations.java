package org.partita.jms.message;

import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;
import org.partita.jms.destination.PartitaDestination;
import org.partita.jms.destination.PartitaQueue;
import org.partita.jms.destination.PartitaTemporaryQueue;
import org.partita.jms.destination.PartitaTemporaryTopic;
import org.partita.jms.destination.PartitaTopic;

/**
 * Turns any {@link Destination} into a Partita one, because only those can be written to the wire.
 * Destinations of another provider keep their queue or topic name; that is the only thing a
 * destination carries that means something to Partita.
 */
final class Destinations {
    private Destinations() {
    }

    static PartitaDestination toPartita(Destination d) throws JMSException {
        if (d == null || d instanceof PartitaDestination) {
            return (PartitaDestination) d;
        }
        try {
            return convert(d);
        } catch (IllegalArgumentException e) {
            // A foreign destination with an empty name.
            InvalidDestinationException ide = new InvalidDestinationException(e.getMessage());
            ide.initCause(e);
            throw ide;
        }
    }

    private static PartitaDestination convert(Destination d) throws JMSException {
        // Temporary types first: they extend Queue and Topic.
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
        throw new InvalidDestinationException("destination " + d + " is neither a queue nor a topic");
    }
}
