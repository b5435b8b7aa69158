package org.partita.jms.destination;

import jakarta.jms.Queue;
import org.partita.protocol.DestinationName;

public class PartitaQueue extends PartitaDestination implements Queue {
    private static final long serialVersionUID = 1L;

    public PartitaQueue(String name) {
        super(name);
    }

    @Override
    public String getQueueName() {
        return name();
    }

    @Override
    public DestinationName.Kind kind() {
        return DestinationName.Kind.QUEUE;
    }
}
