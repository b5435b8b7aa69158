package org.partita.broker.store.replica;

/**
 * Told when this node starts or stops leading a replica set. A node serves a replicated partition
 * (dispatches it, takes its sends) only while it leads its set, and only once its store holds every
 * entry committed before: {@link #leading} comes then, not at the election.
 */
public interface LeadershipListener {
    LeadershipListener NONE = new LeadershipListener() {
        @Override
        public void leading(ReplicatedStore store) {}

        @Override
        public void following(ReplicatedStore store, String leader) {}
    };

    /** This node leads the set, and its store holds everything the set confirmed. */
    void leading(ReplicatedStore store);

    /**
     * This node does not lead the set (any more): {@code leader} does, or null during an election.
     * Writes already handed to the log may still be confirmed or end in doubt.
     */
    void following(ReplicatedStore store, String leader);
}
