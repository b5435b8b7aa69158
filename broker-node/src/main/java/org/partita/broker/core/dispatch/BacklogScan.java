package org.partita.broker.core.dispatch;

import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.partita.broker.core.queue.QueueEntry;

/**
 * The walk shared by engines: in order, drop what expired, skip what is delayed, deliver the rest.
 *
 * <p>Two kinds of wait differ in what they hold back. A message sent with a delivery delay is
 * skipped alone: the sender chose its time, so later messages of its key go ahead of it. A message
 * waiting out its redelivery delay (it failed, and the queue spaces its retries) holds back the later
 * messages of its key, which must not be processed before it; other keys and unkeyed messages are
 * delivered meanwhile.
 */
final class BacklogScan {
    private BacklogScan() {}

    /**
     * @param chooser the consumer for an entry, or null to leave it waiting and look further
     * @param more    whether delivering can go on (some consumer has credit)
     * @param fits    false stops the walk at this entry (it must be delivered before any later one)
     * @return the earliest time a delayed entry becomes due, or Long.MAX_VALUE
     */
    static long deliver(
            Backlog backlog,
            long now,
            DispatchEngine.Host host,
            Function<QueueEntry, ConsumerRef> chooser,
            BooleanSupplier more,
            java.util.function.Predicate<QueueEntry> fits) {
        long earliestDelayed = Long.MAX_VALUE;
        Set<Integer> waitingKeys = null; // hashes of keys whose earliest message waits to be redelivered
        Iterator<QueueEntry> it = backlog.iterator();
        while (it.hasNext() && more.getAsBoolean()) {
            QueueEntry e = it.next();
            long deliveryTime = e.message().deliveryTime();
            if (deliveryTime > now) {
                earliestDelayed = Math.min(earliestDelayed, deliveryTime);
                continue;
            }
            if (host.isExpired(e, now)) {
                it.remove();
                host.expire(e);
                continue;
            }
            if (e.waitsForRedelivery(now)) {
                earliestDelayed = Math.min(earliestDelayed, e.redeliverAt());
                if (e.message().keyed()) {
                    if (waitingKeys == null) {
                        waitingKeys = new HashSet<>();
                    }
                    waitingKeys.add(e.message().keyHash());
                }
                continue;
            }
            if (waitingKeys != null
                    && e.message().keyed()
                    && waitingKeys.contains(e.message().keyHash())) {
                continue; // the key's earlier message waits to be redelivered: this one waits behind it
            }
            ConsumerRef c = chooser.apply(e);
            if (c != null && !fits.test(e)) {
                break;
            }
            if (c != null) {
                it.remove();
                host.deliver(c, e);
            }
        }
        return earliestDelayed;
    }
}
