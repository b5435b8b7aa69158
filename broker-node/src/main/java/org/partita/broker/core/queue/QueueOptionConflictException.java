package org.partita.broker.core.queue;

/**
 * A destination name asks for queue options that differ from those of the queue it names, which
 * already exists. Queue options only count when a name creates the queue, so such a name is refused
 * rather than silently ignored; the message names each option, both values and how to change the queue.
 */
public class QueueOptionConflictException extends RuntimeException {
    public QueueOptionConflictException(String message) {
        super(message);
    }
}
