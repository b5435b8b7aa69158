package org.partita.broker.core.partition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.partita.broker.core.dispatch.ConsumerRef;

/**
 * Chooses the owner of each partition among the eligible consumers: evenly spread (counts differ
 * by at most one) and sticky: a partition stays with its current owner whenever that owner is
 * still eligible and within its share, so one consumer joining moves only the partitions it takes,
 * never a reshuffle of every key.
 */
public final class PartitionAssignor {
    private PartitionAssignor() {}

    /**
     * @param eligible in a stable order (attach order); those earlier get the larger shares
     * @param current  the current (or pending) owner per partition, null where none
     * @return the owner per partition; all null if nobody is eligible
     */
    public static ConsumerRef[] assign(List<ConsumerRef> eligible, ConsumerRef[] current) {
        int p = current.length;
        ConsumerRef[] target = new ConsumerRef[p];
        int n = eligible.size();
        if (n == 0) {
            return target;
        }
        Map<ConsumerRef, Integer> quota = new HashMap<>();
        for (int i = 0; i < n; i++) {
            quota.put(eligible.get(i), p / n + (i < p % n ? 1 : 0));
        }
        for (int i = 0; i < p; i++) {
            ConsumerRef c = current[i];
            Integer left = c == null ? null : quota.get(c);
            if (left != null && left > 0) {
                target[i] = c;
                quota.put(c, left - 1);
            }
        }
        int cursor = 0;
        for (int i = 0; i < p; i++) {
            if (target[i] != null) {
                continue;
            }
            while (quota.get(eligible.get(cursor)) == 0) {
                cursor++;
            }
            ConsumerRef c = eligible.get(cursor);
            target[i] = c;
            quota.put(c, quota.get(c) - 1);
        }
        return target;
    }
}
