package org.partita.broker.core.partition;

import org.partita.broker.core.dispatch.ConsumerRef;

/**
 * Which partitions of a queue this node hosts, and which consumers it prefers as their owners. On a
 * node of its own every partition is hosted and every consumer is alike ({@link #ALL}); for a queue
 * spread over a cluster, a node hosts some partitions and prefers its own consumers and those of
 * nodes that host none, keeping consumers of other hosting nodes as a fallback (so no partition is
 * left without a consumer) or excluding them ({@code localOnly}).
 */
public interface PartitionScope {
    /** Consumers of this tier are preferred; higher tiers own partitions only when none of a lower one is there. */
    int PREFERRED = 0;
    /** Never owns a partition here. */
    int EXCLUDED = -1;

    boolean hosted(int partition);

    /**
     * Whether a hosted partition may deliver now: a replicated partition only while this node's
     * leadership of its set is confirmed (a node paused and resumed must not deliver what another
     * node delivered meanwhile).
     */
    default boolean deliverable(int partition) {
        return true;
    }

    /** {@link #PREFERRED}, a higher number for a fallback, or {@link #EXCLUDED}. */
    int tier(ConsumerRef consumer);

    PartitionScope ALL = new PartitionScope() {
        @Override
        public boolean hosted(int partition) {
            return true;
        }

        @Override
        public int tier(ConsumerRef consumer) {
            return PREFERRED;
        }
    };
}
