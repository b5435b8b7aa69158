package org.partita.broker.core.topic;

/** A subscription request that the JMS rules forbid (active unshared durable subscriber, mismatched shared one). */
public class SubscriptionConflictException extends RuntimeException {
    public SubscriptionConflictException(String message) {
        super(message);
    }
}
