package org.partita.jms.destination;

import jakarta.jms.JMSException;
import jakarta.jms.TemporaryTopic;
import org.partita.protocol.DestinationName;

public class PartitaTemporaryTopic extends PartitaTopic implements TemporaryTopic {
    private static final long serialVersionUID = 1L;

    private final transient TemporaryDestinationOwner owner;

    public PartitaTemporaryTopic(String name, TemporaryDestinationOwner owner) {
        super(name);
        this.owner = owner;
    }

    public TemporaryDestinationOwner owner() {
        return owner;
    }

    @Override
    public void delete() throws JMSException {
        TemporaryDestinationOwner.delete(owner, this);
    }

    @Override
    public DestinationName.Kind kind() {
        return DestinationName.Kind.TEMP_TOPIC;
    }
}
