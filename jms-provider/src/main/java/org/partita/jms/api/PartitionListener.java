package org.partita.jms.api;

import java.util.Set;

/**
 * Told when a consumer of a partitioned queue gains or loses partitions. A partition is revoked
 * when its handoff begins: from then on the consumer receives nothing more of it (it may still
 * acknowledge what it holds). A partition is assigned once its handoff has completed, and the
 * callback runs before any message of it reaches a listener of the same session. A consumer that
 * keeps per-key state can flush it in {@link #onPartitionsRevoked} and the new owner load it in
 * {@link #onPartitionsAssigned}.
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
