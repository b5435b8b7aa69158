package org.partita.samples.plantfloor;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.partita.samples.support.KeyOrderLedger;
import org.partita.samples.support.Story;

/** The downtime service as the platform runs it: as many identical instances as the load asks for. */
final class DowntimeService implements AutoCloseable {
    private final List<ConnectionFactory> nodes;
    private final Queue downtime;
    private final Story story;
    private final KeyOrderLedger records = new KeyOrderLedger();
    private final List<DowntimeInstance> instances = new ArrayList<>();

    DowntimeService(ConnectionFactory factory, Queue downtime, Story story) {
        this(List.of(factory), downtime, story);
    }

    /** Instances started one node after the other, as a platform spreads them over a cluster. */
    DowntimeService(List<ConnectionFactory> nodes, Queue downtime, Story story) {
        this.nodes = List.copyOf(nodes);
        this.downtime = downtime;
        this.story = story;
    }

    /** Starts instances until {@code count} run. */
    void scaleTo(int count) throws JMSException {
        while (instances.size() < count) {
            int n = instances.size();
            String name = "instance-" + (n + 1) + (nodes.size() > 1 ? "@node" + (n % nodes.size() + 1) : "");
            instances.add(new DowntimeInstance(name, nodes.get(n % nodes.size()), downtime, records, story));
            story.say("%s attached", name);
        }
    }

    /** Whether every one of the {@code partitions} has an owner and the instances' shares differ by at most one. */
    boolean evenlySpread(int partitions) {
        int fewest = partitions / instances.size();
        int most = fewest + (partitions % instances.size() == 0 ? 0 : 1);
        int owned = 0;
        for (DowntimeInstance i : instances) {
            int n = i.ownedPartitions().size();
            if (n < fewest || n > most) {
                return false;
            }
            owned += n;
        }
        return owned == partitions;
    }

    boolean everyInstanceApplied() {
        return instances.stream().allMatch(i -> i.applied() > 0);
    }

    int size() {
        return instances.size();
    }

    /** Where the instances applied the changes: the database of downtime records. */
    KeyOrderLedger records() {
        return records;
    }

    String spread() {
        return instances.stream().map(i -> i.name() + " " + i.ownedPartitions()).collect(Collectors.joining(", "));
    }

    String appliedPerInstance() {
        return instances.stream().map(i -> i.name() + "=" + i.applied()).collect(Collectors.joining(" "));
    }

    void tellInstances() {
        for (DowntimeInstance i : instances) {
            story.plain("%-12s owns %-12s applied %5d changes", i.name(), i.ownedPartitions(), i.applied());
        }
    }

    @Override
    public void close() throws JMSException {
        instances.forEach(DowntimeInstance::quiet); // the partitions of the ones closing first move to the others
        for (DowntimeInstance i : instances) {
            i.close();
        }
    }
}
