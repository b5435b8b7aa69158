package org.partita.samples.plantfloor;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import org.partita.jms.api.PartitaAdmin;
import org.partita.samples.support.KeyOrderLedger;
import org.partita.samples.support.MachineGateway;
import org.partita.samples.support.Sample;
import org.partita.samples.support.SampleNode;
import org.partita.samples.support.SampleQueues;
import org.partita.samples.support.Story;
import org.partita.samples.support.Verdict;
import org.partita.samples.support.Waiting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import javax.naming.Context;
import javax.naming.InitialContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The first source document's plant: machines publish state changes keyed by machine id to
 * {@code mfg/machine/<id>/state}; the queue {@code downtime}, partitioned 8 ways and subscribed to
 * {@code mfg/machine/>}, feeds a downtime service that runs 2 instances at night and scales to 8 at
 * shift change while the machines keep publishing. The sample checks that every change was applied
 * once and no machine's changes out of order, and that every instance got its share.
 */
@Command(name = "plant-floor",
        description = "Plant floor: a downtime service scales from 2 to 8 instances on a partitioned queue; "
                + "each machine's changes stay in order")
public final class PlantFloor extends Sample {
    /** Generous: at worst a rebalance waits rebalanceDelay (5 s) after the last arrival, then up to maxHandoffTime (3 s). */
    private static final Duration SPREAD_LIMIT = Duration.ofSeconds(60);

    /** Rounds published with each spread, so that every instance visibly shares the work. */
    private static final int ROUNDS_PER_PHASE = 15;

    @Option(names = "--machines", defaultValue = "120", description = "Machines publishing (default: ${DEFAULT-VALUE}).")
    int machines;

    @Option(names = "--partitions", defaultValue = "8", description = "Partitions of the downtime queue (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--night", defaultValue = "2", description = "Instances of the downtime service at night (default: ${DEFAULT-VALUE}).")
    int night;

    @Option(names = "--peak", defaultValue = "8", description = "Instances at shift change (default: ${DEFAULT-VALUE}).")
    int peak;

    @Option(names = "--round-millis", defaultValue = "200",
            description = "Every machine reports a change this often, in milliseconds (default: ${DEFAULT-VALUE}).")
    long roundMillis;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        exit(new PlantFloor(), args);
    }

    @Override
    protected Verdict run(SampleNode node, Story story) throws Exception {
        if (machines < 1 || night < 1 || peak < night || peak > partitions || roundMillis < 1) {
            throw new ParameterException(spec.commandLine(),
                    "need --machines >= 1, --round-millis >= 1 and 1 <= --night <= --peak <= --partitions");
        }
        Hashtable<String, Object> env = node.jndiEnvironment();
        env.put("queue.downtime", "downtime");
        Context jndi = new InitialContext(env);
        KeyOrderLedger records = new KeyOrderLedger();
        List<DowntimeInstance> instances = new ArrayList<>();
        ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "gateway"));
        try (SampleQueues queues = SampleQueues.on((ConnectionFactory) jndi.lookup("ConnectionFactory"));
             MachineGateway gateway = new MachineGateway((ConnectionFactory) jndi.lookup("ConnectionFactory"), machines,
                     // plant gateways usually publish without waiting for the disk; the downtime queue's
                     // subscription stores each change durably anyway (promotion)
                     DeliveryMode.NON_PERSISTENT)) {
            queues.declare("downtime", Map.of("partitions", String.valueOf(partitions), "subscriptions", "mfg/machine/>"));
            story.say("declared queue downtime: %d partitions, subscribed to mfg/machine/> (default rebalanceDelay 5 s, "
                    + "maxHandoffTime 3 s)", partitions);
            ConnectionFactory serviceFactory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
            Queue downtime = (Queue) jndi.lookup("downtime");

            story.part("Night: " + night + " instances of the downtime service");
            addInstances(instances, night, serviceFactory, downtime, records, story);
            publisher.scheduleAtFixedRate(gateway::publishRound, 0, roundMillis, TimeUnit.MILLISECONDS);
            story.say("%d machines publish a state change every %d ms, keyed by machine id", machines, roundMillis);
            boolean nightSpread = Waiting.until(SPREAD_LIMIT, () -> evenSpread(instances));
            tellSpread(story, instances);
            boolean nightServed = runRounds(gateway, instances, story);

            story.part("Shift change: " + (peak - night) + " more instances start while the machines keep publishing");
            story.say("a partition moves only once its old owner has finished the changes it was applying, so no "
                    + "machine's changes overtake each other");
            addInstances(instances, peak - night, serviceFactory, downtime, records, story);
            boolean peakSpread = Waiting.until(SPREAD_LIMIT, () -> evenSpread(instances));
            tellSpread(story, instances);
            boolean everyoneServed = runRounds(gateway, instances, story);

            story.part("The machines stop; the service drains the queue");
            publisher.shutdown();
            publisher.awaitTermination(10, TimeUnit.SECONDS);
            int published = gateway.total();
            boolean drained = Waiting.until(SPREAD_LIMIT, () -> records.applied() >= published);
            story.say("%d changes published, %d applied, %d redelivered duplicates ignored", published, records.applied(),
                    records.duplicatesIgnored());
            tellPartitions(story, queues.partitions("downtime"));
            for (DowntimeInstance i : instances) {
                story.plain("%-12s owns %-12s applied %5d changes", i.name(), i.ownedPartitions(), i.applied());
            }

            return new Verdict()
                    .check("the night instances shared the partitions evenly", nightSpread && nightServed,
                            night + " instances, " + partitions + " partitions")
                    .check("after the shift change the partitions were spread evenly over every instance", peakSpread,
                            instances.size() + " instances, " + partitions + " partitions")
                    .check("every instance applied changes", everyoneServed, appliedPerInstance(instances))
                    .check("every change was applied exactly once", drained && records.holdsExactly(gateway.sent()),
                            published + " published, " + records.applied() + " applied")
                    .check("no machine's changes were applied out of order", records.faults() == 0, records.faultSummary());
        } finally {
            publisher.shutdownNow();
            for (DowntimeInstance i : instances) {
                i.close();
            }
            jndi.close();
        }
    }

    private static void addInstances(List<DowntimeInstance> instances, int count, ConnectionFactory factory, Queue downtime,
                                     KeyOrderLedger records, Story story) throws JMSException {
        for (int n = 0; n < count; n++) {
            String name = "instance-" + (instances.size() + 1);
            instances.add(new DowntimeInstance(name, factory, downtime, records, story));
            story.say("%s attached", name);
        }
    }

    /** Whether every partition has an owner and the instances' shares differ by at most one. */
    private boolean evenSpread(List<DowntimeInstance> instances) {
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

    /** Lets the machines publish a few more rounds with the current spread, until every instance has applied changes. */
    private static boolean runRounds(MachineGateway gateway, List<DowntimeInstance> instances, Story story)
            throws InterruptedException {
        int start = gateway.rounds();
        story.say("the machines publish %d rounds with this spread", ROUNDS_PER_PHASE);
        return Waiting.until(SPREAD_LIMIT, () -> gateway.rounds() >= start + ROUNDS_PER_PHASE
                && instances.stream().allMatch(i -> i.applied() > 0));
    }

    private static void tellSpread(Story story, List<DowntimeInstance> instances) {
        StringBuilder spread = new StringBuilder();
        for (DowntimeInstance i : instances) {
            spread.append(spread.isEmpty() ? "" : ", ").append(i.name()).append(' ').append(i.ownedPartitions());
        }
        story.say("spread: %s", spread);
    }

    private static void tellPartitions(Story story, List<PartitaAdmin.Partition> figures) {
        story.plain("partition  state     depth  delivered");
        for (PartitaAdmin.Partition p : figures) {
            story.plain("%9d  %-8s  %5d  %9d", p.partition(), p.state(), p.depth(), p.delivered());
        }
    }

    private static String appliedPerInstance(List<DowntimeInstance> instances) {
        return instances.stream().map(i -> i.name() + "=" + i.applied()).reduce((a, b) -> a + " " + b).orElse("none");
    }
}
