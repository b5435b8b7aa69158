package org.partita.samples.plantfloor;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.partita.jms.api.PartitaAdmin;
import org.partita.samples.support.KeyOrderLedger;
import org.partita.samples.support.MachineGateway;
import org.partita.samples.support.Sample;
import org.partita.samples.support.SampleCluster;
import org.partita.samples.support.SampleNode;
import org.partita.samples.support.Story;
import org.partita.samples.support.Verdict;
import org.partita.samples.support.Waiting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The plant floor on a cluster of three nodes: the downtime queue's 8 partitions are spread over
 * the nodes ({@code hosts=*}); 120 machines publish their state changes, keyed by machine, through
 * a gateway connected to one node (each change is forwarded to the node hosting its machine's
 * partition); the downtime service runs 2 instances, then 8, started on the nodes in turn. The
 * sample checks that every change is applied once, no machine's changes out of order, and every
 * instance on every node took part.
 */
@Command(
        name = "cluster-plant-floor",
        description = "Plant floor on a 3-node cluster: a downtime service scales from 2 to 8 instances across nodes; "
                + "each machine's changes stay in order")
public final class ClusterPlantFloor extends Sample {
    private static final Duration LIMIT = Duration.ofSeconds(90);
    private static final int ROUNDS_PER_PHASE = 15;

    @Option(
            names = "--urls",
            split = ",",
            paramLabel = "tcp://HOST:PORT",
            description =
                    "The nodes of a running cluster (three URLs). Default: start a 3-node cluster in this process.")
    List<String> urls;

    @Option(
            names = "--machines",
            defaultValue = "120",
            description = "Machines publishing (default: ${DEFAULT-VALUE}).")
    int machines;

    @Option(
            names = "--round-millis",
            defaultValue = "200",
            description = "Every machine reports a change this often, in milliseconds (default: ${DEFAULT-VALUE}).")
    long roundMillis;

    private static final int PARTITIONS = 8;
    private static final int NIGHT = 2;
    private static final int PEAK = 8;

    public static void main(String[] args) {
        exit(new ClusterPlantFloor(), args);
    }

    @Override
    protected boolean usesOneNode() {
        return false;
    }

    @Override
    protected String insteadOfUrl() {
        return "give a running cluster's nodes with --urls tcp://HOST:PORT,tcp://HOST:PORT,..., or leave both out"
                + " to start three nodes in this process";
    }

    @Override
    protected void checkOptions() {
        if (machines < 1 || roundMillis < 1 || (urls != null && urls.size() < 2)) {
            throw badOptions("need --machines >= 1, --round-millis >= 1, and at least two --urls");
        }
    }

    @Override
    protected Verdict run(SampleNode unused, Story story) throws Exception {
        ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "gateway"));
        try (SampleCluster cluster =
                urls == null ? SampleCluster.embedded("plant", 3, story) : SampleCluster.remote(urls, story)) {
            List<ConnectionFactory> nodes = new ArrayList<>();
            for (int i = 0; i < cluster.size(); i++) {
                nodes.add(cluster.factory(i));
            }
            try (PartitaAdmin admin = PartitaAdmin.connect(nodes.get(0))) {
                admin.updateQueue(
                        "downtime",
                        Map.of(
                                "partitions",
                                String.valueOf(PARTITIONS),
                                "hosts",
                                "*",
                                "subscriptions",
                                "mfg/machine/>"));
                story.say(
                        "declared queue downtime on the cluster: %d partitions over every node, fed by mfg/machine/>",
                        PARTITIONS);
                story.say("partition hosts: %s", hosts(admin.clusterStatus()));
            }
            Queue downtime = nodes.get(0).createContext().createQueue("downtime");
            try (MachineGateway gateway = new MachineGateway(nodes.get(0), machines, DeliveryMode.NON_PERSISTENT);
                    DowntimeService service = new DowntimeService(nodes, downtime, story)) {
                story.part("Night: " + NIGHT + " instances, on node1 and node2");
                service.scaleTo(NIGHT);
                publisher.scheduleAtFixedRate(gateway::publishRound, 0, roundMillis, TimeUnit.MILLISECONDS);
                story.say(
                        "%d machines publish a change every %d ms through node1, keyed by machine id",
                        machines, roundMillis);
                boolean nightSpread = Waiting.until(LIMIT, () -> service.evenlySpread(PARTITIONS));
                story.say("spread: %s", service.spread());
                boolean nightServed = rounds(gateway, service);

                story.part("Shift change: " + (PEAK - NIGHT) + " more instances, spread over the three nodes");
                service.scaleTo(PEAK);
                boolean peakSpread = Waiting.until(LIMIT, () -> service.evenlySpread(PARTITIONS));
                story.say("spread: %s", service.spread());
                boolean everyoneServed = rounds(gateway, service);

                story.part("The machines stop; the service drains the queue");
                publisher.shutdown();
                publisher.awaitTermination(10, TimeUnit.SECONDS);
                int published = gateway.total();
                KeyOrderLedger records = service.records();
                boolean drained = Waiting.until(LIMIT, () -> records.applied() >= published);
                story.say(
                        "%d changes published, %d applied, %d redelivered duplicates ignored",
                        published, records.applied(), records.duplicatesIgnored());
                service.tellInstances();
                return new Verdict()
                        .check(
                                "the night instances shared every partition of the cluster",
                                nightSpread && nightServed,
                                NIGHT + " instances, " + PARTITIONS + " partitions on 3 nodes")
                        .check(
                                "after the shift change the partitions were spread evenly over every instance",
                                peakSpread,
                                service.size() + " instances")
                        .check(
                                "every instance, on every node, applied changes",
                                everyoneServed,
                                service.appliedPerInstance())
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
        }
    }

    private static boolean rounds(MachineGateway gateway, DowntimeService service) throws InterruptedException {
        int start = gateway.rounds();
        return Waiting.until(
                LIMIT, () -> gateway.rounds() >= start + ROUNDS_PER_PHASE && service.everyInstanceApplied());
    }

    /** Partition number to hosting node, from the cluster's status lines. */
    private static Map<Integer, String> hosts(Map<String, String> status) {
        Map<Integer, String> out = new TreeMap<>();
        status.forEach((k, v) -> {
            if (k.startsWith("queue.downtime.partition.") && k.endsWith(".host")) {
                out.put(Integer.parseInt(k.split("\\.")[3]), v);
            }
        });
        return out;
    }
}
