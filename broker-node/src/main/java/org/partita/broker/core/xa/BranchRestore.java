package org.partita.broker.core.xa;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.protocol.MessageCodec;

/**
 * Puts prepared branches back in place at start-up, while the broker loads its queues: the stored
 * entries they consumed come back locked (the broker asks {@link #claims} for each entry it loads),
 * and the messages they send come back held by the branch, counted against their queues.
 */
public final class BranchRestore {
    private record EntryKey(String queue, long messageId) {}

    private final Map<XaBranch, BranchRecord> records;
    /** The registry's lock guards the branches' lists, here as everywhere. */
    private final Object lock;

    private final Map<EntryKey, XaBranch> claimed = new HashMap<>();
    private final long maxMessageId;

    BranchRestore(Map<XaBranch, BranchRecord> records, Object lock) {
        this.records = records;
        this.lock = lock;
        long max = 0;
        for (Map.Entry<XaBranch, BranchRecord> r : records.entrySet()) {
            for (BranchRecord.Take t : r.getValue().taken()) {
                claimed.put(new EntryKey(t.queue(), t.messageId()), r.getKey());
            }
            for (BranchRecord.Send s : r.getValue().sends()) {
                max = Math.max(max, s.messageId());
            }
        }
        this.maxMessageId = max;
    }

    /** The highest message id the branches send: new ids must continue after it too. */
    public long maxMessageId() {
        return maxMessageId;
    }

    /** Whether a prepared branch consumed this stored entry. */
    public boolean claims(String queue, long messageId) {
        return claimed.containsKey(new EntryKey(queue, messageId));
    }

    /** Restores the entry, locked by the branch that consumed it. */
    public void restoreLocked(BrokerQueue queue, MessageRef message, int deliveryCount) {
        XaBranch b = claimed.get(new EntryKey(queue.name(), message.id()));
        QueueEntry e = queue.restoreLocked(message, deliveryCount);
        synchronized (lock) {
            b.locked.add(e);
        }
    }

    /** Gives each branch its sends, their queues looked up (or created) by {@code queues}. */
    public void finish(Function<String, BrokerQueue> queues) {
        for (Map.Entry<XaBranch, BranchRecord> r : records.entrySet()) {
            XaBranch b = r.getKey();
            for (BranchRecord.Send s : r.getValue().sends()) {
                MessageRef m =
                        new MessageRef(s.messageId(), s.payload(), MessageCodec.decodeHeaders(s.payload()), null);
                List<BrokerQueue> targets = new ArrayList<>(s.queues().size());
                for (String name : s.queues()) {
                    BrokerQueue q = queues.apply(name);
                    q.reserveRestored(m);
                    targets.add(q);
                }
                synchronized (lock) {
                    b.sends.add(new Broker.PendingSend(targets, m));
                }
            }
        }
    }
}
