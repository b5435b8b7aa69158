package org.partita.jms.destination;

import jakarta.jms.JMSException;

/** The connection that created a temporary destination; only it may delete it. */
public interface TemporaryDestinationOwner {
    void deleteTemporary(PartitaDestination destination) throws JMSException;

    /** TemporaryQueue/TemporaryTopic.delete(): only through the connection that created it. */
    static void delete(TemporaryDestinationOwner owner, PartitaDestination destination) throws JMSException {
        if (owner == null) {
            throw new jakarta.jms.IllegalStateException(
                    "only the connection that created " + destination + " can delete it");
        }
        owner.deleteTemporary(destination);
    }
}
