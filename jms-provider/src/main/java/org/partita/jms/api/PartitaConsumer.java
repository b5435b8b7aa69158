package org.partita.jms.api;

import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import java.util.Set;
import org.partita.jms.client.PartitaJMSConsumer;

/**
 * What a Partita consumer offers beyond {@link MessageConsumer}. Every consumer created by a
 * Partita session implements it:
 *
 * <pre>{@code
 * PartitaConsumer c = (PartitaConsumer) session.createConsumer(session.createQueue("jobs?priority=5"));
 * c.setPriority(10);            // become the primary: only the highest priority present receives
 * c.setCapacity(20, 1 << 20);   // hold at most 20 unacknowledged messages and 1 MiB
 * c.setPartitionListener(new PartitionListener() {
 *     public void onPartitionsAssigned(Set<Integer> p) { loadState(p); }
 *     public void onPartitionsRevoked(Set<Integer> p) { flushState(p); }
 * });
 * }</pre>
 *
 * A {@link JMSConsumer} of a {@code JMSContext} offers the same through {@link #of(JMSConsumer)}:
 *
 * <pre>{@code
 * JMSConsumer jc = context.createConsumer(context.createQueue("orders?partitions=8"));
 * PartitaConsumer.of(jc).setPartitionListener(listener);
 * }</pre>
 */
public interface PartitaConsumer extends MessageConsumer {

    /**
     * The Partita controls of a {@code JMSContext}'s consumer: the same consumer, so what is set
     * here applies to what {@code consumer} receives.
     *
     * @throws IllegalArgumentException if {@code consumer} was not created by Partita
     */
    static PartitaConsumer of(JMSConsumer consumer) {
        if (consumer instanceof PartitaJMSConsumer p) {
            return p.partitaConsumer();
        }
        throw new IllegalArgumentException("not a Partita consumer: "
                + (consumer == null ? null : consumer.getClass().getName()));
    }

    /**
     * Changes this consumer's priority while it is attached; it takes effect at the node's next
     * dispatch. Only consumers of the highest priority present receive (on a partitioned queue:
     * own partitions); the others wait as standbys.
     */
    void setPriority(int priority) throws JMSException;

    int getPriority() throws JMSException;

    /**
     * Limits what this consumer holds unacknowledged: at most {@code messages} messages and
     * {@code bytes} bytes (0 means no limit). The node never delivers beyond it, and one slow
     * consumer's limit does not slow the others.
     */
    void setCapacity(int messages, long bytes) throws JMSException;

    /** The partitions of a partitioned queue this consumer owns now (empty for other queues). */
    Set<Integer> getOwnedPartitions() throws JMSException;

    /**
     * Hears of partitions assigned to and revoked from this consumer, on the session's thread. If
     * the consumer already owns partitions when the listener is set, the listener first hears of
     * them as assigned, so it never misses the first assignment however fast it came.
     */
    void setPartitionListener(PartitionListener listener) throws JMSException;

    /**
     * {@link JMSConsumer#receiveBody(Class, long)} on a classic consumer, with its rules: waits up to
     * {@code timeout} ms (0: for ever; negative: not at all) and returns the body as {@code c}. When
     * the body cannot be returned as {@code c} it throws {@link jakarta.jms.MessageFormatException}
     * and, in the auto-acknowledge modes, the message stays as if the call had not happened (the next
     * receive gets it, not counted as redelivered). For code that builds a {@code JMSContext} on
     * sessions, as a Jakarta EE server's resource adapter does.
     */
    <T> T receiveBody(Class<T> c, long timeout) throws JMSException;
}
