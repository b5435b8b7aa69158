package org.partita.ra.container;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;

import javax.transaction.xa.XAResource;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A message-driven bean as the container deploys it, without a transaction ({@code NOT_SUPPORTED}):
 * every endpoint records each message's {@code JMSXGroupID} and {@code seq} in the shared
 * {@link Deliveries}, and the factory checks the container's rules the adapter must follow
 * (one delivery at a time per endpoint, each between {@code beforeDelivery} and
 * {@code afterDelivery}, nothing delivered to a released endpoint).
 */
public final class RecordingEndpointFactory implements MessageEndpointFactory {
    private final Deliveries deliveries;
    private final AtomicInteger created = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicInteger ruleBreaks = new AtomicInteger();

    public RecordingEndpointFactory(Deliveries deliveries) {
        this.deliveries = deliveries;
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource) {
        created.incrementAndGet();
        return new Endpoint();
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) {
        return createEndpoint(xaResource);
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return false;
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

    /** Deliveries that broke the container's rules: concurrent, outside before/after, after release. */
    public int ruleBreaks() {
        return ruleBreaks.get();
    }

    private final class Endpoint implements MessageEndpoint, MessageListener {
        private final AtomicBoolean delivering = new AtomicBoolean();
        private final AtomicBoolean isReleased = new AtomicBoolean();

        @Override
        public void beforeDelivery(Method method) {
            if (isReleased.get() || !delivering.compareAndSet(false, true)) {
                ruleBreaks.incrementAndGet();
            }
        }

        @Override
        public void onMessage(Message message) {
            if (!delivering.get()) {
                ruleBreaks.incrementAndGet();
            }
            try {
                deliveries.arrived(message.getStringProperty("JMSXGroupID"), message.getIntProperty("seq"),
                        message.getJMSRedelivered());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void afterDelivery() {
            if (!delivering.compareAndSet(true, false)) {
                ruleBreaks.incrementAndGet();
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
