package org.partita.broker.core.queue;

/** A send would take a queue past its maxDepthMessages or maxDepthBytes; nothing was stored. */
public class QueueFullException extends RuntimeException {
    public QueueFullException(String message) {
        super(message);
    }
}
