package org.partita.jms.api;

import java.util.Set;

/**
 * Told when a consumer of a partitioned queue gains or loses partitions. A partition is revoked
 * only after its handoff: the consumer received nothing more of it once the move began, so a
 * consumer that keeps per-key state can flush it in {@link #onPartitionsRevoked} and the new owner
 * load it in {@link #onPartitionsAssigned}.
 *
 * <pre>{@code
 * consumer.setPartitionListener(new PartitionListener() {
 *     public void onPartitionsAssigned(Set<Integer> partitions) { System.out.println("now own " + partitions); }
 *     public void onPartitionsRevoked(Set<Integer> partitions) { System.out.println("gave up " + partitions); }
 * });
 * }</pre>
 */
public interface PartitionListener {
    void onPartitionsAssigned(Set<Integer> partitions);

    void onPartitionsRevoked(Set<Integer> partitions);
}
