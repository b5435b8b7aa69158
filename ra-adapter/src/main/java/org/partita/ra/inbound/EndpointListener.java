package org.partita.ra.inbound;

import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;

/**
 * Delivers one session's messages to its message-driven bean instance, one at a time: the
 * container's transaction (when the bean's delivery is transacted) begins at
 * {@code beforeDelivery}, enlists the session's XA resource, and ends at {@code afterDelivery},
 * committing what the bean did with the message's consumption, or rolling both back if the bean
 * threw. Without a transaction, a message the bean threw on is given back, redelivered.
 */
final class EndpointListener implements MessageListener {
    private static final Logger LOG = LoggerFactory.getLogger(EndpointListener.class);
    static final Method ON_MESSAGE;

    static {
        try {
            ON_MESSAGE = MessageListener.class.getMethod("onMessage", Message.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MessageEndpoint endpoint;
    private final boolean transacted;

    EndpointListener(MessageEndpoint endpoint, boolean transacted) {
        this.endpoint = endpoint;
        this.transacted = transacted;
    }

    @Override
    public void onMessage(Message message) {
        try {
            endpoint.beforeDelivery(ON_MESSAGE);
        } catch (NoSuchMethodException | ResourceException e) {
            throw new IllegalStateException("the container refused to start a delivery: " + e.getMessage(), e);
        }
        RuntimeException failure = null;
        try {
            ((MessageListener) endpoint).onMessage(message);
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            try {
                endpoint.afterDelivery(); // commits, or rolls back when the bean failed
            } catch (ResourceException e) {
                LOG.warn("the container could not complete a delivery: {}", e.getMessage());
                if (failure == null) {
                    failure = new IllegalStateException(e.getMessage(), e);
                }
            }
        }
        if (failure != null) {
            LOG.debug("message-driven bean failed on a message; it will be delivered again: {}", failure.toString());
            if (!transacted) {
                throw failure; // the session gives it back, redelivered
            }
        }
    }

    void release() {
        endpoint.release();
    }
}
