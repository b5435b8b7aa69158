package org.partita.jms.client;

import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;

/**
 * Which JMS 1.0 domain an object was created for (JMS 9.2): a QueueSession or QueueConnection
 * must refuse the topic-only methods it inherits, and a TopicSession the queue-only ones.
 */
enum Domain {
    ANY,
    QUEUE,
    TOPIC;

    /** Refuses a topic-only method on a queue-domain object. */
    void topicOnly(String method) throws JMSException {
        if (this == QUEUE) {
            throw new IllegalStateException(method + " is not allowed on a point-to-point (queue) object");
        }
    }

    /** Refuses a queue-only method on a topic-domain object. */
    void queueOnly(String method) throws JMSException {
        if (this == TOPIC) {
            throw new IllegalStateException(method + " is not allowed on a publish/subscribe (topic) object");
        }
    }
}
