package org.partita.jms.destination;

import jakarta.jms.JMSException;

/** The connection that created a temporary destination; only it may delete it. */
public interface TemporaryDestinationOwner {
    void deleteTemporary(PartitaDestination destination) throws JMSException;
}
