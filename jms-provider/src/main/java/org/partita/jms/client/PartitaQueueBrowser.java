package org.partita.jms.client;

import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.partita.jms.destination.PartitaDestination;
import org.partita.jms.message.MessageFactory;
import org.partita.protocol.MessageCodec;

/** Reads a queue's waiting messages without consuming them; each enumeration is a fresh snapshot. */
final class PartitaQueueBrowser implements QueueBrowser {
    private final PartitaSession session;
    private final Queue queue;
    private final String selector;
    private volatile boolean closed;

    PartitaQueueBrowser(PartitaSession session, Queue queue, String selector) {
        this.session = session;
        this.queue = queue;
        this.selector = selector;
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return queue;
    }

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return selector;
    }

    @Override
    public Enumeration<?> getEnumeration() throws JMSException {
        checkOpen();
        List<byte[]> encoded = JmsExceptions.await(
                session.connection().transport().browse(((PartitaDestination) queue).encode(), selector));
        List<Object> messages = new java.util.ArrayList<>(encoded.size());
        for (byte[] b : encoded) {
            messages.add(MessageFactory.fromWire(MessageCodec.decode(b), 1));
        }
        return Collections.enumeration(messages);
    }

    @Override
    public void close() {
        closed = true;
    }

    private void checkOpen() throws JMSException {
        if (closed) {
            throw new IllegalStateException("the browser is closed");
        }
        session.checkOpen();
    }
}
