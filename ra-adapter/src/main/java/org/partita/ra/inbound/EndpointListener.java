package org.partita.ra.inbound;

import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;

/**
 * Delivers one session's messages to its message-driven bean instance, one at a time: the
 * container's transaction (when the bean's delivery is transacted) begins at
 * {@code beforeDelivery}, enlists the session's XA resource, and ends at {@code afterDelivery},
 * committing what the bean did with the message's consumption.
 *
 * <p>A message is acknowledged only when a bean processed it. Any failure on the way (the
 * container refusing {@code beforeDelivery} or the invocation, the bean throwing,
 * {@code afterDelivery} failing) hands it back redelivered: without a transaction the session
 * takes it back; in a transaction the branch is failed ({@link DeliveryXAResource}) and, where the
 * container offers its transaction registry, the transaction is marked rollback-only, so that a
 * container which refused the invocation without marking its transaction does not commit the
 * message's consumption. What the session had prefetched behind it goes back with it, so its key
 * keeps its order. After a failure the endpoint waits a little before its next message
 * ({@link FailurePause}).
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
    /** The endpoint's XA resource when deliveries are transacted; null otherwise. */
    private final DeliveryXAResource transaction;
    /** The container's registry of transactions, if it gives one. */
    private final TransactionSynchronizationRegistry registry;
    private final FailurePause pause;

    EndpointListener(MessageEndpoint endpoint, DeliveryXAResource transaction, TransactionSynchronizationRegistry registry,
                     FailurePause pause) {
        this.endpoint = endpoint;
        this.transaction = transaction;
        this.registry = registry;
        this.pause = pause;
    }

    @Override
    public void onMessage(Message message) {
        try {
            endpoint.beforeDelivery(ON_MESSAGE);
        } catch (NoSuchMethodException | RuntimeException | jakarta.resource.ResourceException e) {
            // no delivery began: nothing to end; the session takes the message back
            throw failed(new IllegalStateException("the container refused to start a delivery: " + e, e));
        }
        RuntimeException failure = null;
        try {
            ((MessageListener) endpoint).onMessage(message);
        } catch (RuntimeException e) {
            failure = e;
            doomTransaction();
        } finally {
            try {
                endpoint.afterDelivery(); // commits, or rolls back a doomed transaction
            } catch (jakarta.resource.ResourceException | RuntimeException e) {
                LOG.warn("the container could not complete a delivery: {}", e.toString());
                if (failure == null) {
                    failure = new IllegalStateException(e.getMessage(), e);
                }
            }
        }
        if (failure == null) {
            pause.succeeded();
            return;
        }
        if (transaction == null) {
            throw failed(failure); // the session gives it back, redelivered
        }
        failed(failure); // the failed branch gave it back
    }

    /** Logs a failed delivery and waits before the next one; returns the failure to throw. */
    private RuntimeException failed(RuntimeException failure) {
        LOG.info("a delivery to the message-driven bean failed; the message will be delivered again: {}", failure.toString());
        pause.failed();
        return failure;
    }

    /** The delivery's transaction must not commit: neither the message's consumption nor what the bean did. */
    private void doomTransaction() {
        if (transaction == null) {
            return;
        }
        transaction.failDelivery();
        if (registry != null) {
            try {
                registry.setRollbackOnly();
            } catch (RuntimeException e) {
                LOG.debug("could not mark the delivery's transaction rollback-only: {}", e.toString());
            }
        }
    }

    void release() {
        endpoint.release();
    }
}
