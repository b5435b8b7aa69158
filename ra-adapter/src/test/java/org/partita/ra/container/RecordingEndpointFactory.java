package org.partita.ra.container;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAResource;

/**
 * A message-driven bean as the container deploys it, without a transaction ({@code NOT_SUPPORTED})
 * or with container transactions ({@code REQUIRED}: each delivery in a JTA transaction of its own,
 * begun at {@code beforeDelivery} with the endpoint's XA resource enlisted, committed at
 * {@code afterDelivery}); every endpoint records each message's {@code JMSXGroupID} and {@code seq} in the shared
 * {@link Deliveries}, and the factory checks the container's rules the adapter must follow
 * (one delivery at a time per endpoint, each between {@code beforeDelivery} and
 * {@code afterDelivery}, nothing delivered to a released endpoint).
 *
 * <p>{@link #shutDown} makes it behave as WildFly does while it undeploys a bean, before it
 * deactivates the endpoint: every invocation is refused with an exception, the bean never runs,
 * and the transaction begun at {@code beforeDelivery} is not marked rollback-only.
 */
public final class RecordingEndpointFactory implements MessageEndpointFactory {
    private final Deliveries deliveries;
    /** The container's transaction manager for a transacted bean; null: not transacted. */
    private final TransactionManager transactions;

    private final AtomicInteger created = new AtomicInteger();
    private final AtomicInteger commits = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicInteger ruleBreaks = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile boolean shuttingDown;
    private volatile long workMillis;
    private final java.util.Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Each key's partition as the deliveries named it (JMS_PARTITA_Partition). */
    private final java.util.Map<String, Integer> partitionOfKey = new java.util.concurrent.ConcurrentHashMap<>();

    public RecordingEndpointFactory(Deliveries deliveries) {
        this(deliveries, null);
    }

    public RecordingEndpointFactory(Deliveries deliveries, TransactionManager transactions) {
        this.deliveries = deliveries;
        this.transactions = transactions;
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource) {
        if (transactions != null && xaResource == null) {
            ruleBreaks.incrementAndGet(); // a transacted bean's endpoint needs the session's XA resource
        }
        return new Endpoint(xaResource, created.incrementAndGet());
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) {
        return createEndpoint(xaResource);
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return transactions != null;
    }

    @Override
    public String getActivationName() {
        return "machine-events-mdb";
    }

    @Override
    public Class<?> getEndpointClass() {
        return Endpoint.class;
    }

    /** Endpoints created and not released: the bean instances consuming now. */
    public int live() {
        return created.get() - released.get();
    }

    public int created() {
        return created.get();
    }

    /** Transactions committed at afterDelivery. */
    public int commits() {
        return commits.get();
    }

    /** The bean works this long on each message it processes. */
    public RecordingEndpointFactory workingFor(long millis) {
        workMillis = millis;
        return this;
    }

    /** Each key's partition, as named by the messages delivered (absent for messages of plain queues). */
    public java.util.Map<String, Integer> partitionOfKey() {
        return java.util.Map.copyOf(partitionOfKey);
    }

    /** The names of the threads the bean ran on. */
    public java.util.Set<String> threads() {
        return java.util.Set.copyOf(threads);
    }

    /** From now on every invocation is refused, as by a container shutting the bean down. */
    public void shutDown() {
        shuttingDown = true;
    }

    /** Invocations refused since {@link #shutDown}. */
    public int refused() {
        return refused.get();
    }

    /** Deliveries that broke the container's rules: concurrent, outside before/after, after release. */
    public int ruleBreaks() {
        return ruleBreaks.get();
    }

    private final class Endpoint implements MessageEndpoint, MessageListener {
        private final XAResource xaResource;
        private final AtomicBoolean delivering = new AtomicBoolean();
        private final AtomicBoolean isReleased = new AtomicBoolean();

        private final int id;

        Endpoint(XAResource xaResource, int id) {
            this.xaResource = xaResource;
            this.id = id;
        }

        @Override
        public void beforeDelivery(Method method) throws ResourceException {
            if (isReleased.get() || !delivering.compareAndSet(false, true)) {
                ruleBreaks.incrementAndGet();
            }
            if (transactions != null) {
                try {
                    transactions.begin();
                    transactions.getTransaction().enlistResource(xaResource);
                } catch (Exception e) {
                    throw new ResourceException("the container could not begin the delivery's transaction", e);
                }
            }
        }

        @Override
        public void onMessage(Message message) {
            if (!delivering.get()) {
                ruleBreaks.incrementAndGet();
            }
            threads.add(Thread.currentThread().getName());
            if (shuttingDown) {
                refused.incrementAndGet();
                throw new IllegalStateException("Invocation cannot proceed as component is shutting down");
            }
            try {
                if (workMillis > 0) {
                    Thread.sleep(workMillis); // the bean's work: a slow listener on purpose
                }
                if (message.propertyExists(org.partita.jms.api.PartitaProperties.PARTITION)) {
                    partitionOfKey.put(
                            message.getStringProperty("JMSXGroupID"),
                            message.getIntProperty(org.partita.jms.api.PartitaProperties.PARTITION));
                }
                deliveries.arrived(
                        message.getStringProperty("JMSXGroupID"),
                        message.getIntProperty("seq"),
                        message.getJMSRedelivered(),
                        id);
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void afterDelivery() throws ResourceException {
            if (!delivering.compareAndSet(true, false)) {
                ruleBreaks.incrementAndGet();
            }
            if (transactions != null) {
                try {
                    if (transactions.getStatus() == Status.STATUS_MARKED_ROLLBACK) {
                        transactions.rollback();
                    } else {
                        transactions.commit();
                        commits.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new ResourceException("the delivery's transaction did not commit", e);
                }
            }
        }

        @Override
        public void release() {
            if (isReleased.compareAndSet(false, true)) {
                released.incrementAndGet();
            }
        }
    }
}
