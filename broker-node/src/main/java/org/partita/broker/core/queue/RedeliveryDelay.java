package org.partita.broker.core.queue;

/**
 * How long a message handed back for redelivery (rollback, recover, a listener that threw, a
 * session that closed holding it, an XA rollback) waits before it may be delivered again: the queue
 * options {@code redeliveryDelay}, {@code redeliveryMultiplier} and {@code maxRedeliveryDelay}, named
 * and computed as in ActiveMQ Artemis. After its n-th delivery a message waits
 * {@code initial * multiplier^(n-1)}, at most {@code max}.
 *
 * @param initialMillis the wait after the first delivery; 0 redelivers at once
 * @param multiplier    what each further delivery multiplies the wait by, at least 1
 * @param maxMillis     the longest wait
 */
public record RedeliveryDelay(long initialMillis, double multiplier, long maxMillis) {
    /** Without {@code maxRedeliveryDelay} the wait grows to ten times {@code redeliveryDelay}, as in Artemis. */
    public static final int DEFAULT_MAX_FACTOR = 10;

    /** Milliseconds a message that has had {@code deliveries} deliveries waits before the next one. */
    public long afterDeliveries(int deliveries) {
        if (initialMillis <= 0 || deliveries <= 0) {
            return 0;
        }
        // In doubles, since the power soon passes any long; the cap then brings it back.
        double wait = initialMillis * Math.pow(multiplier, deliveries - 1);
        return (long) Math.min(wait, (double) maxMillis);
    }
}
