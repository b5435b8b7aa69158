package org.partita.jms.destination;

import jakarta.jms.JMSException;
import jakarta.jms.TemporaryQueue;
import org.partita.protocol.DestinationName;

public class PartitaTemporaryQueue extends PartitaQueue implements TemporaryQueue {
    private static final long serialVersionUID = 1L;

    private final transient TemporaryDestinationOwner owner;

    public PartitaTemporaryQueue(String name, TemporaryDestinationOwner owner) {
        super(name);
        this.owner = owner;
    }

    /** The connection that created it, or null when this copy came from a message header. */
    public TemporaryDestinationOwner owner() {
        return owner;
    }

    @Override
    public void delete() throws JMSException {
        TemporaryDestinationOwner.delete(owner, this);
    }

    @Override
    public DestinationName.Kind kind() {
        return DestinationName.Kind.TEMP_QUEUE;
    }
}
