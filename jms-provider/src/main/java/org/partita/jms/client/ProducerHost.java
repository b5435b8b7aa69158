package org.partita.jms.client;

import jakarta.jms.CompletionListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

/**
 * What a {@link PartitaJMSProducer} sends through: the session of its {@code JMSContext}, which makes
 * the bodies it sends, and the context's one anonymous producer. Partita's own contexts are hosts; so
 * is a resource adapter's context built on a server's pooled session.
 */
public interface ProducerHost {
    /** The context's session; throws {@code IllegalStateRuntimeException} once the context is closed. */
    Session session();

    /** The context's one producer without a destination. */
    MessageProducer producer();

    /**
     * An asynchronous send is about to start: the listener the producer is to call, which lets the
     * context wait for it; the caller abandons it if the send throws (then it is never called).
     */
    AsyncSend startAsync(CompletionListener listener);

    /** The completion listener of one asynchronous send, as the context tracks it. */
    interface AsyncSend extends CompletionListener {
        /** The send threw, so its listener will never be called. */
        void abandon();
    }
}
