package org.partita.samples.support;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.partita.jms.api.PartitaAdmin;

/**
 * Declares the queues a sample needs through {@link PartitaAdmin}, as an operator would (or a
 * {@code queue.NAME.OPTION} line in the node config), and removes them when the sample is done,
 * so that a sample can run again and again against the same node. A queue left over by an
 * earlier run that was interrupted is removed before it is declared anew.
 */
public final class SampleQueues implements AutoCloseable {
    private final PartitaAdmin admin;
    private final List<String> declared = new ArrayList<>();

    private SampleQueues(PartitaAdmin admin) {
        this.admin = admin;
    }

    public static SampleQueues on(ConnectionFactory factory) throws JMSException {
        return new SampleQueues(PartitaAdmin.connect(factory));
    }

    /** Creates {@code name} with {@code options}, after removing what an earlier run left. */
    public void declare(String name, Map<String, String> options) throws JMSException {
        removeLeftover(name);
        admin.updateQueue(name, options);
        declared.add(name);
    }

    /** Removes {@code name} now if it exists and at the end, for queues the sample creates by naming them. */
    public void own(String name) throws JMSException {
        removeLeftover(name);
        declared.add(name);
    }

    /** The per-partition figures of {@code queue} (one row for a queue that is not partitioned). */
    public List<PartitaAdmin.Partition> partitions(String queue) throws JMSException {
        return admin.partitions(queue);
    }

    /** Messages waiting in {@code queue}, over all its partitions. */
    public int depth(String queue) throws JMSException {
        return admin.partitions(queue).stream()
                .mapToInt(PartitaAdmin.Partition::depth)
                .sum();
    }

    /** Messages of {@code queue} not acknowledged yet: waiting, or delivered (perhaps still in a prefetch buffer). */
    public int unacknowledged(String queue) throws JMSException {
        return admin.partitions(queue).stream()
                .mapToInt(p -> p.depth() + p.inFlight())
                .sum();
    }

    /** The consumers that own partitions of {@code queue} now (none while the queue does not exist yet). */
    public Set<String> owners(String queue) throws JMSException {
        if (!admin.queues().contains(queue)) {
            return Set.of();
        }
        Set<String> owners = new TreeSet<>();
        for (PartitaAdmin.Partition p : admin.partitions(queue)) {
            if (p.owner() != null && "ASSIGNED".equals(p.state())) {
                owners.add(p.owner());
            }
        }
        return owners;
    }

    /** What the node's store has written since the node started ({@code node.status}). */
    public StoreWrites storeWrites() throws JMSException {
        return StoreWrites.of(admin.nodeStatus());
    }

    public List<String> queues() throws JMSException {
        return admin.queues();
    }

    private void removeLeftover(String name) throws JMSException {
        if (admin.queues().contains(name)) {
            admin.deleteQueue(name);
        }
    }

    @Override
    public void close() throws JMSException {
        try {
            for (String name : declared) {
                removeLeftover(name);
            }
        } finally {
            admin.close();
        }
    }
}
