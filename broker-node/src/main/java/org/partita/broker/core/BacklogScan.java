package org.partita.broker.core;

import java.util.Iterator;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/** The walk shared by engines: in order, drop what expired, skip what is delayed, deliver the rest. */
final class BacklogScan {
    private BacklogScan() {
    }

    /**
     * @param chooser the consumer for an entry, or null to leave it waiting and look further
     * @param more    whether delivering can go on (some consumer has credit)
     * @param fits    false stops the walk at this entry (it must be delivered before any later one)
     * @return the earliest delivery time of a delayed entry, or Long.MAX_VALUE
     */
    static long deliver(Backlog backlog, long now, DispatchEngine.Host host, Function<QueueEntry, ConsumerRef> chooser,
                        BooleanSupplier more, java.util.function.Predicate<QueueEntry> fits) {
        long earliestDelayed = Long.MAX_VALUE;
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
