package org.partita.samples.spring;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.samples.support.KeyOrderLedger;

/**
 * Applies order events as they arrive on the container's listener threads, noting which thread
 * handled each and whether each order's events came in order.
 */
public class OrderEventHandler implements MessageListener {
    private final KeyOrderLedger ledger = new KeyOrderLedger();
    private final Map<String, AtomicLong> perThread = new ConcurrentHashMap<>();

    @Override
    public void onMessage(Message message) {
        try {
            ledger.apply(
                    message.getStringProperty("JMSXGroupID"),
                    message.getIntProperty("seq"),
                    message.getJMSRedelivered());
            perThread
                    .computeIfAbsent(Thread.currentThread().getName(), t -> new AtomicLong())
                    .incrementAndGet();
        } catch (JMSException e) {
            throw new IllegalStateException("an order event without its key or number", e); // rolled back, redelivered
        }
    }

    KeyOrderLedger ledger() {
        return ledger;
    }

    /** Events handled per listener thread. */
    Map<String, Long> perThread() {
        Map<String, Long> counts = new TreeMap<>();
        perThread.forEach((thread, n) -> counts.put(thread, n.get()));
        return counts;
    }
}
