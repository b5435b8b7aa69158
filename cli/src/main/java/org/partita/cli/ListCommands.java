package org.partita.cli;

import java.util.List;
import java.util.Map;
import org.partita.jms.api.PartitaAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** The listings: partitions of a queue, consumers, subscriptions, connections. */
final class ListCommands {
    private ListCommands() {}

    @Command(
            name = "partitions",
            description = "A queue's partitions: owner consumer and its address, depth, in flight, "
                    + "oldest age, rate, handoffs.")
    static final class Partitions extends NodeCommand {
        @Parameters(paramLabel = "QUEUE")
        String queue;

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            List<PartitaAdmin.Partition> parts = s.admin().partitions(queue);
            out.table(
                    parts.stream().map(Figures::partition).toList(),
                    Output.columns(
                            "PARTITION",
                            "partition",
                            "STATE",
                            "state",
                            "OWNER",
                            "owner",
                            "WAITING",
                            "depth",
                            "IN FLIGHT",
                            "inFlight",
                            "OLDEST MS",
                            "oldestAgeMillis",
                            "RATE/S",
                            "ratePerSecond",
                            "DELIVERED",
                            "delivered",
                            "HANDOFFS",
                            "handoffs",
                            "HOT",
                            "hot"),
                    "queue " + queue + " has no partitions");
        }
    }

    @Command(name = "consumers", description = "Consumers of every queue, or of one.")
    static final class Consumers extends NodeCommand {
        @Parameters(paramLabel = "QUEUE", arity = "0..1")
        String queue;

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            out.table(
                    typed(s.admin().consumers(queue)),
                    Output.columns(
                            "CONSUMER",
                            "consumer",
                            "QUEUE",
                            "queue",
                            "PRIORITY",
                            "priority",
                            "PARTITIONS",
                            "partitions",
                            "IN FLIGHT",
                            "inFlight",
                            "CREDITS",
                            "credits",
                            "DELIVERED",
                            "delivered",
                            "ACKED",
                            "acknowledged",
                            "SELECTOR",
                            "selector"),
                    "no consumers");
        }
    }

    @Command(
            name = "subscriptions",
            description = "Topic subscriptions (durable, shared, plain) and queues fed by topics.")
    static final class Subscriptions extends NodeCommand {
        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            out.table(
                    typed(s.admin().subscriptions()),
                    Output.columns(
                            "SUBSCRIPTION",
                            "subscription",
                            "KIND",
                            "kind",
                            "TOPIC",
                            "topic",
                            "QUEUE",
                            "queue",
                            "CONSUMERS",
                            "consumers",
                            "SELECTOR",
                            "selector"),
                    "no subscriptions");
        }
    }

    @Command(name = "connections", description = "Open client connections.")
    static final class Connections extends NodeCommand {
        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            out.table(
                    typed(s.admin().connections()),
                    Output.columns(
                            "FROM",
                            "connection",
                            "USER",
                            "user",
                            "CLIENT ID",
                            "clientId",
                            "SESSIONS",
                            "sessions",
                            "CONSUMERS",
                            "consumers",
                            "OPENED",
                            "openedAt",
                            "BYTES IN",
                            "bytesIn",
                            "BYTES OUT",
                            "bytesOut"),
                    "no connections");
        }
    }

    static List<Map<String, Object>> typed(List<Map<String, String>> rows) {
        return rows.stream().map(Output::typed).toList();
    }
}
