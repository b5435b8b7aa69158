package org.partita.jms.destination;

import jakarta.jms.Topic;
import org.partita.protocol.DestinationName;

public class PartitaTopic extends PartitaDestination implements Topic {
    private static final long serialVersionUID = 1L;

    public PartitaTopic(String name) {
        super(name);
    }

    @Override
    public String getTopicName() {
        return name();
    }

    @Override
    public DestinationName.Kind kind() {
        return DestinationName.Kind.TOPIC;
    }
}
