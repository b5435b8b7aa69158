package org.partita.cli;

import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code partita queue list|stat|create|update|delete|purge|browse}. */
@Command(
        name = "queue",
        description = "List, inspect, create, change, purge, browse and delete queues.",
        subcommands = {
            QueueCommand.ListQueues.class,
            QueueCommand.Stat.class,
            QueueCommand.Create.class,
            QueueCommand.Update.class,
            QueueCommand.Delete.class,
            QueueCommand.Purge.class,
            QueueCommand.Browse.class
        })
final class QueueCommand {

    @Command(name = "list", description = "Every queue with its figures.")
    static final class ListQueues extends NodeCommand {
        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            List<Map<String, Object>> rows =
                    s.admin().queueStats().stream().map(Figures::queue).toList();
            out.table(
                    rows,
                    Output.columns(
                            "QUEUE",
                            "name",
                            "MODE",
                            "mode",
                            "PARTS",
                            "partitions",
                            "WAITING",
                            "depth",
                            "IN FLIGHT",
                            "inFlight",
                            "CONSUMERS",
                            "consumers",
                            "OLDEST MS",
                            "oldestAgeMillis",
                            "RATE/S",
                            "ratePerSecond",
                            "ENQUEUED",
                            "enqueued",
                            "DELIVERED",
                            "delivered",
                            "ACKED",
                            "acknowledged",
                            "DEAD",
                            "deadLettered"),
                    "no queues");
        }
    }

    @Command(name = "stat", description = "One queue's figures.")
    static final class Stat extends NodeCommand {
        @Parameters(paramLabel = "QUEUE")
        String queue;

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            out.fields(Figures.queue(s.admin().queueStats(queue)));
        }
    }

    @Command(
            name = "create",
            description = "Creates a queue with options (docs/destinations.md); refused if it exists.")
    static final class Create extends NodeCommand {
        @Parameters(paramLabel = "QUEUE")
        String queue;

        @Option(
                names = {"-o", "--option"},
                paramLabel = "NAME=VALUE",
                description = "a queue option, e.g. -o partitions=8")
        Map<String, String> options = new LinkedHashMap<>();

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            if (s.admin().queues().contains(queue)) {
                throw new ExitCodes.Refusal(
                        ExitCodes.REFUSED,
                        "queue '" + queue + "' exists already; change it with 'partita queue update'");
            }
            Map<String, String> all = s.admin().updateQueue(queue, options);
            out.done("created queue " + queue + " " + describe(all), new LinkedHashMap<>(all));
        }
    }

    @Command(name = "update", description = "Changes options of an existing queue; unnamed options keep their values.")
    static final class Update extends NodeCommand {
        @Parameters(paramLabel = "QUEUE")
        String queue;

        @Option(
                names = {"-o", "--option"},
                paramLabel = "NAME=VALUE",
                required = true,
                description = "an option to change, e.g. -o maxDeliveryAttempts=5")
        Map<String, String> options = new LinkedHashMap<>();

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            s.admin().queueOptions(queue); // does not exist: exit 4, never created by accident
            Map<String, String> all = s.admin().updateQueue(queue, options);
            out.done("updated queue " + queue + " " + describe(all), new LinkedHashMap<>(all));
        }
    }

    @Command(name = "delete", description = "Deletes a queue and the messages in it.")
    static final class Delete extends NodeCommand {
        @Parameters(paramLabel = "QUEUE")
        String queue;

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            s.admin().deleteQueue(queue);
            out.done("deleted queue " + queue, Output.map("deleted", queue));
        }
    }

    @Command(
            name = "purge",
            description = "Removes the messages waiting in a queue (not those delivered and unacknowledged).")
    static final class Purge extends NodeCommand {
        @Parameters(paramLabel = "QUEUE")
        String queue;

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            int n = s.admin().purgeQueue(queue);
            out.done("purged " + n + " messages from " + queue, Output.map("queue", queue, "purged", n));
        }
    }

    @Command(name = "browse", description = "Shows the messages waiting in a queue, without taking them.")
    static final class Browse extends NodeCommand {
        @Parameters(paramLabel = "QUEUE")
        String queue;

        @Option(
                names = "--limit",
                defaultValue = "50",
                description = "the most messages shown (default ${DEFAULT-VALUE})")
        int limit;

        @Option(names = "--selector", description = "a JMS message selector")
        String selector;

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            out.table(
                    browse(s, queue, selector, limit, false),
                    Output.columns(
                            "MESSAGE ID",
                            "messageId",
                            "TIMESTAMP",
                            "timestamp",
                            "PRIORITY",
                            "priority",
                            "DELIVERIES",
                            "deliveryCount",
                            "GROUP",
                            "group",
                            "DESTINATION",
                            "destination",
                            "BODY",
                            "body"),
                    "no messages waiting in " + queue);
        }
    }

    /**
     * Waiting messages of a queue, through a JMS browser; an AppId queue {@code q#app} is read as {@code q?appId=app}.
     *
     * @param deadLetters add what the node says of a dead letter (its {@code JMS_PARTITA_} properties) to every row
     */
    static List<Map<String, Object>> browse(
            NodeOptions.NodeSession s, String queue, String selector, int limit, boolean deadLetters) throws Exception {
        int hash = queue.indexOf('#');
        String name = hash < 0 ? queue : queue.substring(0, hash) + "?appId=" + queue.substring(hash + 1);
        s.admin().queueOptions(queue); // a queue that does not exist is an error, not an empty listing
        Session session = s.connection().createSession(false, Session.AUTO_ACKNOWLEDGE);
        List<Map<String, Object>> rows = new ArrayList<>();
        try (QueueBrowser browser = session.createBrowser(session.createQueue(name), selector)) {
            Enumeration<?> e = browser.getEnumeration();
            while (e.hasMoreElements() && rows.size() < limit) {
                Message m = (Message) e.nextElement();
                rows.add(Output.map(
                        "messageId",
                        m.getJMSMessageID(),
                        "timestamp",
                        instant(m.getJMSTimestamp()),
                        "priority",
                        m.getJMSPriority(),
                        "deliveryCount",
                        m.getIntProperty("JMSXDeliveryCount"),
                        "group",
                        m.getStringProperty("JMSXGroupID"),
                        "destination",
                        m.getJMSDestination() == null
                                ? null
                                : m.getJMSDestination().toString(),
                        "body",
                        body(m)));
                if (deadLetters) {
                    rows.get(rows.size() - 1).putAll(DeadLetterFields.of(m));
                }
            }
        } finally {
            session.close();
        }
        return rows;
    }

    static String instant(long epochMillis) {
        return epochMillis == 0
                ? null
                : java.time.Instant.ofEpochMilli(epochMillis).toString();
    }

    private static String body(Message m) throws Exception {
        String text = m instanceof jakarta.jms.TextMessage t
                ? t.getText()
                : "(" + m.getClass().getSimpleName().replace("Partita", "") + ")";
        if (text == null) {
            return null;
        }
        text = text.replaceAll("\\s+", " ");
        return text.length() > 60 ? text.substring(0, 57) + "..." : text;
    }

    private static String describe(Map<String, String> options) {
        StringBuilder sb = new StringBuilder("(");
        options.forEach((k, v) -> {
            if (!k.equals("name") && !v.isEmpty()) {
                sb.append(sb.length() > 1 ? ", " : "").append(k).append('=').append(v);
            }
        });
        return sb.append(')').toString();
    }
}
