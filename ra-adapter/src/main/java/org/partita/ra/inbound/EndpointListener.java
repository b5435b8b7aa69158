package org.partita.ra.inbound;

import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.Method;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one session's messages to its message-driven bean instance, one at a time, on the
 * server's work manager (JCA 2.1, chapter 11), so the server's thread pools, limits and contexts
 * apply; the session's thread waits for each delivery, which keeps a partition's order. The
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
    /** The server's work manager, whose threads run the bean; null: the session's thread does. */
    private final WorkManager workManager;

    EndpointListener(
            MessageEndpoint endpoint,
            DeliveryXAResource transaction,
            TransactionSynchronizationRegistry registry,
            FailurePause pause,
            WorkManager workManager) {
        this.workManager = workManager;
        this.endpoint = endpoint;
        this.transaction = transaction;
        this.registry = registry;
        this.pause = pause;
    }

    /**
     * Runs the delivery on a thread of the server's work manager and waits for it (one at a time on
     * this session, so the partition's order holds); without a work manager, on the session's thread.
     */
    @Override
    public void onMessage(Message message) {
        Delivery delivery = new Delivery(message);
        if (workManager == null) {
            delivery.run();
        } else {
            try {
                workManager.doWork(delivery);
            } catch (WorkException e) {
                if (!delivery.ran) {
                    throw failed(new IllegalStateException("the server's work manager refused the delivery: " + e, e));
                }
                // a failure of the bean itself is in delivery.failure
            }
        }
        if (delivery.refused != null) {
            throw failed(delivery.refused);
        }
        if (delivery.failure == null) {
            pause.succeeded();
            return;
        }
        if (transaction == null) {
            throw failed(delivery.failure); // the session gives it back, redelivered
        }
        failed(delivery.failure); // the failed branch gave it back
    }

    /** One message to the bean: {@code beforeDelivery}, {@code onMessage}, {@code afterDelivery}, on the thread that runs it. */
    private final class Delivery implements Work {
        private final Message message;
        private volatile boolean ran;
        /** The container refused to start the delivery: nothing to end, the session takes the message back. */
        private volatile RuntimeException refused;

        private volatile RuntimeException failure;

        Delivery(Message message) {
            this.message = message;
        }

        @Override
        public void run() {
            ran = true;
            try {
                endpoint.beforeDelivery(ON_MESSAGE);
            } catch (NoSuchMethodException | RuntimeException | jakarta.resource.ResourceException e) {
                refused = new IllegalStateException("the container refused to start a delivery: " + e, e);
                return;
            }
            RuntimeException failed = null;
            try {
                ((MessageListener) endpoint).onMessage(message);
            } catch (RuntimeException | Error e) {
                failed = e instanceof RuntimeException r ? r : new IllegalStateException("the bean failed: " + e, e);
                doomTransaction();
            } finally {
                try {
                    endpoint.afterDelivery(); // commits, or rolls back a doomed transaction
                } catch (jakarta.resource.ResourceException | RuntimeException e) {
                    LOG.warn("the container could not complete a delivery: {}", e.toString());
                    if (failed == null) {
                        failed = new IllegalStateException(e.getMessage(), e);
                    }
                }
            }
            failure = failed;
        }

        /** A bean's delivery cannot be cut short; the session's close waits for it. */
        @Override
        public void release() {}
    }

    /** Logs a failed delivery and waits before the next one; returns the failure to throw. */
    private RuntimeException failed(RuntimeException failure) {
        LOG.info(
                "a delivery to the message-driven bean failed; the message will be delivered again: {}",
                failure.toString());
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
