package org.partita.ra.context;

import jakarta.jms.CompletionListener;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSProducer;
import org.partita.jms.client.PartitaJMSProducer;
import org.partita.jms.client.ProducerHost;

/**
 * The producer of a {@link ContainerJMSContext}: Partita's JMSProducer (send options, properties and
 * headers applied to every message) sending through the context's session, without asynchronous
 * sends, which an application in a web or EJB container may not make (Jakarta Messaging 12.2).
 */
final class ContainerJMSProducer extends PartitaJMSProducer {
    ContainerJMSProducer(ProducerHost host) {
        super(host);
    }

    @Override
    public JMSProducer setAsync(CompletionListener completionListener) {
        if (completionListener != null) {
            throw new IllegalStateRuntimeException(
                    "asynchronous sends are not allowed in a Jakarta EE web or EJB container"
                            + " (Jakarta Messaging 12.2)");
        }
        return this;
    }
}
