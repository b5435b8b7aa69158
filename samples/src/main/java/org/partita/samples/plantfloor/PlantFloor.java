package org.partita.samples.plantfloor;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Queue;
import java.time.Duration;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.naming.Context;
import javax.naming.InitialContext;
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

/**
 * The first source document's plant: machines publish state changes keyed by machine id to
 * {@code mfg/machine/<id>/state}; the queue {@code downtime}, partitioned 8 ways and subscribed to
 * {@code mfg/machine/>}, feeds a downtime service that runs 2 instances at night and scales to 8 at
 * shift change while the machines keep publishing. The sample checks that every change was applied
 * once and no machine's changes out of order, and that every instance got its share.
 */
@Command(
        name = "plant-floor",
        description = "Plant floor: a downtime service scales from 2 to 8 instances on a partitioned queue; "
                + "each machine's changes stay in order")
public final class PlantFloor extends Sample {
    /** Generous: at worst a rebalance waits rebalanceDelay (5 s) after the last arrival, then up to maxHandoffTime (3 s). */
    private static final Duration SPREAD_LIMIT = Duration.ofSeconds(60);

    /** Rounds published with each spread, so that every instance visibly shares the work. */
    private static final int ROUNDS_PER_PHASE = 15;

    @Option(
            names = "--machines",
            defaultValue = "120",
            description = "Machines publishing (default: ${DEFAULT-VALUE}).")
    int machines;

    @Option(
            names = "--partitions",
            defaultValue = "8",
            description = "Partitions of the downtime queue (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--night",
            defaultValue = "2",
            description = "Instances of the downtime service at night (default: ${DEFAULT-VALUE}).")
    int night;

    @Option(
            names = "--peak",
            defaultValue = "8",
            description = "Instances at shift change (default: ${DEFAULT-VALUE}).")
    int peak;

    @Option(
            names = "--round-millis",
            defaultValue = "200",
            description = "Every machine reports a change this often, in milliseconds (default: ${DEFAULT-VALUE}).")
    long roundMillis;

    public static void main(String[] args) {
        exit(new PlantFloor(), args);
    }

    @Override
    protected void checkOptions() {
        if (machines < 1 || night < 1 || peak < night || peak > partitions || roundMillis < 1) {
            throw badOptions("need --machines >= 1, --round-millis >= 1 and 1 <= --night <= --peak <= --partitions");
        }
    }

    @Override
    protected Verdict run(SampleNode node, Story story) throws Exception {
        Hashtable<String, Object> env = node.jndiEnvironment();
        env.put("queue.downtime", "downtime");
        Context jndi = new InitialContext(env);
        ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "gateway"));
        try {
            ConnectionFactory factory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
            try (SampleQueues queues = SampleQueues.on(factory);
                    // plant gateways usually publish without waiting for the disk; the downtime queue's
                    // subscription stores each change durably anyway (promotion)
                    MachineGateway gateway = new MachineGateway(factory, machines, DeliveryMode.NON_PERSISTENT);
                    DowntimeService service = new DowntimeService(factory, (Queue) jndi.lookup("downtime"), story)) {
                queues.declare(
                        "downtime", Map.of("partitions", String.valueOf(partitions), "subscriptions", "mfg/machine/>"));
                story.say(
                        "declared queue downtime: %d partitions, subscribed to mfg/machine/> (default rebalanceDelay 5 s, "
                                + "maxHandoffTime 3 s)",
                        partitions);

                story.part("Night: " + night + " instances of the downtime service");
                service.scaleTo(night);
                publisher.scheduleAtFixedRate(() -> publish(gateway, story), 0, roundMillis, TimeUnit.MILLISECONDS);
                story.say("%d machines publish a state change every %d ms, keyed by machine id", machines, roundMillis);
                boolean nightSpread = Waiting.until(SPREAD_LIMIT, () -> service.evenlySpread(partitions));
                story.say("spread: %s", service.spread());
                boolean nightServed = runRounds(gateway, service, story);

                story.part(
                        "Shift change: " + (peak - night) + " more instances start while the machines keep publishing");
                story.say("a partition moves only once its old owner has finished the changes it was applying, so no "
                        + "machine's changes overtake each other");
                service.scaleTo(peak);
                boolean peakSpread = Waiting.until(SPREAD_LIMIT, () -> service.evenlySpread(partitions));
                story.say("spread: %s", service.spread());
                boolean everyoneServed = runRounds(gateway, service, story);

                story.part("The machines stop; the service drains the queue");
                publisher.shutdown();
                publisher.awaitTermination(10, TimeUnit.SECONDS);
                int published = gateway.total();
                KeyOrderLedger records = service.records();
                boolean drained = Waiting.until(SPREAD_LIMIT, () -> records.applied() >= published);
                story.say(
                        "%d changes published, %d applied, %d redelivered duplicates ignored",
                        published, records.applied(), records.duplicatesIgnored());
                tellPartitions(story, queues.partitions("downtime"));
                service.tellInstances();

                return new Verdict()
                        .check(
                                "the night instances shared the partitions evenly",
                                nightSpread && nightServed,
                                night + " instances, " + partitions + " partitions")
                        .check(
                                "after the shift change the partitions were spread evenly over every instance",
                                peakSpread,
                                service.size() + " instances, " + partitions + " partitions")
                        .check("every instance applied changes", everyoneServed, service.appliedPerInstance())
                        .check(
                                "every change was applied exactly once",
                                drained && records.holdsExactly(gateway.sent()),
                                published + " published, " + records.applied() + " applied")
                        .check(
                                "no machine's changes were applied out of order",
                                records.faults() == 0,
                                records.faultSummary());
            }
        } finally {
            publisher.shutdownNow();
            jndi.close();
        }
    }

    private static void publish(MachineGateway gateway, Story story) {
        try {
            gateway.publishRound();
        } catch (RuntimeException e) {
            story.say("the gateway stopped publishing: %s", e); // the rounds stop, and the checks fail
            throw e;
        }
    }

    /** Lets the machines publish a few more rounds with the current spread, until every instance has applied changes. */
    private static boolean runRounds(MachineGateway gateway, DowntimeService service, Story story)
            throws InterruptedException {
        int start = gateway.rounds();
        story.say("the machines publish %d rounds with this spread", ROUNDS_PER_PHASE);
        return Waiting.until(
                SPREAD_LIMIT, () -> gateway.rounds() >= start + ROUNDS_PER_PHASE && service.everyInstanceApplied());
    }

    private static void tellPartitions(Story story, List<PartitaAdmin.Partition> figures) {
        story.plain("partition  state     depth  delivered");
        for (PartitaAdmin.Partition p : figures) {
            story.plain("%9d  %-8s  %5d  %9d", p.partition(), p.state(), p.depth(), p.delivered());
        }
    }
}
