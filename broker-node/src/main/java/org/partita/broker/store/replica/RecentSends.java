package org.partita.broker.store.replica;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The copies of messages a replica set stored lately (by queue and JMSMessageID, {@link SentCopies}),
 * on every replica alike: each adds them as it applies the set's log, so whichever replica leads can tell a send made again (by a
 * producer whose node was lost before it answered) from a new one. Bounded by count and by age;
 * a send made again later than that, or after every replica restarted, is stored again.
 */
final class RecentSends {
    /**
     * How many ids one set remembers, at most: about 150 bytes each, so one per 8 KiB of the heap,
     * from 5,000 to 50,000 (a 256 MiB heap: about 32,000, under 5 MiB per set).
     */
    static final int MAX_IDS =
            (int) Math.max(5_000, Math.min(50_000, Runtime.getRuntime().maxMemory() / 8192));

    private final int maxIds;
    private final long windowNanos;
    /** Id to the time it was applied here, oldest first. */
    private final LinkedHashMap<String, Long> ids = new LinkedHashMap<>();

    /**
     * @param windowNanos how long an id is remembered, at most ({@code cluster.replicaLog.sentAgainWindowMillis},
     *                    2 minutes by default: far longer than a client's failover takes)
     */
    RecentSends(int maxIds, long windowNanos) {
        this.maxIds = maxIds;
        this.windowNanos = windowNanos;
    }

    synchronized void add(String messageId, long nowNanos) {
        ids.put(messageId, nowNanos);
        forgetOld(nowNanos);
    }

    synchronized boolean contains(String messageId, long nowNanos) {
        forgetOld(nowNanos);
        return ids.containsKey(messageId);
    }

    /** The copies remembered now, oldest first (for a follower sent a copy of the store: {@link RecentSendsCopy}). */
    synchronized java.util.List<String> copies(long nowNanos) {
        forgetOld(nowNanos);
        return java.util.List.copyOf(ids.keySet());
    }

    synchronized int size() {
        return ids.size();
    }

    private void forgetOld(long nowNanos) {
        Iterator<Map.Entry<String, Long>> oldest = ids.entrySet().iterator();
        while (oldest.hasNext()) {
            Map.Entry<String, Long> e = oldest.next();
            if (ids.size() <= maxIds && nowNanos - e.getValue() <= windowNanos) {
                return;
            }
            oldest.remove();
        }
    }
}
