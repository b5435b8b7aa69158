package org.partita.broker.admin;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.partita.broker.core.Broker;
import org.partita.broker.core.dispatch.ConsumerFigures;
import org.partita.broker.core.partition.PartitionFigures;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.DestinationAddress;
import org.partita.broker.core.queue.QueueFigures;
import org.partita.broker.core.topic.SubscriptionView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's administrative commands (docs/admin.md). Answers are {@code name=value} lines so
 * that scripts, the {@code partita} CLI and the client's {@code PartitaAdmin} read them alike.
 * Every change is logged at info with who made it and from where.
 */
public final class AdminCommands {
    private static final Logger LOG = LoggerFactory.getLogger("org.partita.admin");
    static final List<String> COMMANDS = List.of(
            "queue.update",
            "queue.options",
            "queue.figures",
            "queue.stat",
            "queue.purge",
            "queue.delete",
            "queue.list",
            "message.move",
            "consumer.list",
            "subscription.list",
            "connection.list",
            "node.status",
            "cluster.status",
            "cluster.members",
            "replica.lag",
            "replica.written",
            "xa.list",
            "xa.commit",
            "xa.rollback",
            "xa.forget");

    private final Broker broker;
    private final NodeReader reader;
    private volatile Supplier<CompletableFuture<String>> clusterStatus = () -> {
        throw new IllegalArgumentException("this node is not a member of a cluster");
    };
    private volatile Supplier<String> replicaLag = () -> "";
    private volatile java.util.function.Function<String, CompletableFuture<String>> replicaWritten = a -> {
        throw new IllegalArgumentException("this node is not a member of a cluster");
    };
    private final MessageMoves moves;
    private final XaAdmin xa;

    /** The answer of {@code cluster.status} on a node that belongs to a cluster. */
    public void clusterStatus(Supplier<CompletableFuture<String>> status) {
        this.clusterStatus = status;
    }

    /**
     * The answer of {@code replica.lag}: for each replica set this node leads, how many committed
     * entries each follower has yet to hold, a {@code <set>=<follower>:<entries>,...} line per set
     * (empty on a node that leads none). Another node's {@code cluster.status} asks it for the sets it leads.
     */
    public void replicaLag(Supplier<String> lag) {
        this.replicaLag = lag;
    }

    /**
     * The answer of {@code replica.written <queue>\n<JMSMessageID>}: {@code stored=true} when a replica
     * set this node keeps stored that message lately, else {@code stored=false}. A node that a message
     * is sent again through asks the others, the lost node having maybe placed it in a set it keeps
     * no replica of (docs/cluster.md, "Sends made again after a node is lost").
     */
    public void replicaWritten(java.util.function.Function<String, CompletableFuture<String>> written) {
        this.replicaWritten = written;
    }

    public AdminCommands(NodeReader reader) {
        this.reader = reader;
        this.broker = reader.broker();
        this.moves = new MessageMoves(broker);
        this.xa = new XaAdmin(broker.xa());
    }

    /** Runs a command for a local caller (tests, embedding). */
    public CompletableFuture<String> run(String command, String argument) {
        return run(command, argument, AdminCaller.LOCAL);
    }

    public CompletableFuture<String> run(String command, String argument, AdminCaller caller) {
        return switch (command) {
            case "queue.update" -> {
                DestinationAddress a = DestinationAddress.parse(require(argument, command));
                yield broker.changeQueue(a.name(), a.queueOptions()).thenApply(q -> {
                    changed(caller, command, argument, "applied");
                    return options(q);
                });
            }
            case "queue.options" ->
                CompletableFuture.completedFuture(options(reader.existing(require(argument, command))));
            case "queue.figures" -> reader.queue(require(argument, command)).thenApply(AdminCommands::figures);
            case "queue.stat" ->
                argument == null || argument.isBlank()
                        ? reader.queues().thenApply(AdminCommands::stats)
                        : reader.queue(argument).thenApply(q -> stats(List.of(q)));
            case "queue.purge" ->
                reader.existing(require(argument, command)).purgeWaiting().thenApply(n -> {
                    changed(caller, command, argument, n + " messages removed");
                    return "purged=" + n + "\n";
                });
            case "queue.delete" -> {
                reader.existing(require(argument, command));
                broker.deleteQueue(argument);
                changed(caller, command, argument, "deleted");
                yield CompletableFuture.completedFuture("deleted=" + argument);
            }
            case "queue.list" -> CompletableFuture.completedFuture(list());
            case "message.move" ->
                moves.move(require(argument, command)).thenApply(r -> {
                    changed(caller, command, argument, r.moved() + " moved, " + r.left() + " left");
                    return new ReplyLines()
                            .put("moved", r.moved())
                            .put("left", r.left())
                            .toString();
                });
            case "consumer.list" -> consumers(argument);
            case "subscription.list" -> CompletableFuture.completedFuture(subscriptions(reader.subscriptions()));
            case "connection.list" -> CompletableFuture.completedFuture(connections(reader.connections()));
            case "node.status" -> reader.status().thenApply(AdminCommands::status);
            case "cluster.status" -> clusterStatus.get();
            case "cluster.members" -> CompletableFuture.completedFuture(reader.clusterMembers());
            case "replica.lag" -> CompletableFuture.completedFuture(replicaLag.get());
            case "replica.written" -> replicaWritten.apply(argument);
            case "xa.list" -> xa.run(command, argument);
            case "xa.commit", "xa.rollback", "xa.forget" ->
                xa.run(command, argument).thenApply(body -> {
                    changed(caller, command, argument, body.trim());
                    return body;
                });
            default ->
                throw new IllegalArgumentException(
                        "unknown admin command '" + command + "'; known: " + String.join(", ", COMMANDS));
        };
    }

    /** One info line per accepted change: who, from where, what. */
    static void changed(AdminCaller caller, String command, String argument, String outcome) {
        LOG.atInfo()
                .addKeyValue("event", "admin")
                .addKeyValue("user", caller.userOrAnonymous())
                .addKeyValue("remote", caller.remote())
                .addKeyValue("command", command)
                .addKeyValue("argument", argument)
                .addKeyValue("outcome", outcome)
                .log(
                        "admin {} {} by {} from {}: {}",
                        command,
                        argument,
                        caller.userOrAnonymous(),
                        caller.remote(),
                        outcome);
    }

    private static String require(String argument, String command) {
        if (argument == null || argument.isBlank()) {
            throw new IllegalArgumentException(command + " needs a queue name");
        }
        return argument;
    }

    private static String options(BrokerQueue q) {
        StringBuilder sb = new StringBuilder("name=").append(q.name()).append('\n');
        for (Map.Entry<String, String> e : q.options().asMap().entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue()).append('\n');
        }
        return sb.toString();
    }

    static String figures(QueueFigures q) {
        ReplyLines out = new ReplyLines();
        for (PartitionFigures r : q.partitions()) {
            PartitionFigures.Current f = r.current();
            PartitionFigures.Counts c = r.counts();
            String p = "partition." + f.partition() + ".";
            out.put(p + "depth", f.depth())
                    .put(p + "inFlight", f.inFlight())
                    .put(p + "owner", f.owner())
                    .put(p + "state", f.state())
                    .putIfPresent(p + "oldestAgeMillis", r.oldestAgeMillis());
            counts(out, p, c);
            out.put(p + "hot", f.hot());
        }
        return out.toString();
    }

    private static void counts(ReplyLines out, String prefix, PartitionFigures.Counts c) {
        out.put(prefix + "enqueued", c.enqueued())
                .put(prefix + "delivered", c.delivered())
                .put(prefix + "acknowledged", c.acknowledged())
                .put(prefix + "redelivered", c.redelivered())
                .put(prefix + "deadLettered", c.deadLettered())
                .put(prefix + "expired", c.expired())
                .put(prefix + "handoffs", c.handoffs())
                .putDecimal(prefix + "ratePerSecond", c.ratePerSecond());
    }

    static String stats(List<QueueFigures> queues) {
        ReplyLines out = new ReplyLines();
        for (QueueFigures q : queues) {
            out.put("queue", q.name())
                    .put("mode", q.options().mode())
                    .put("partitions", q.partitions().size())
                    .put("durable", q.durable())
                    .put("depth", q.depth())
                    .put("inFlight", q.inFlight())
                    .put("heldBytes", q.heldBytes())
                    .put("consumers", q.consumers().size())
                    .putIfPresent("oldestAgeMillis", q.oldestAgeMillis());
            counts(out, "", q.totals());
        }
        return out.toString();
    }

    private CompletableFuture<String> consumers(String queue) {
        CompletableFuture<List<QueueFigures>> queues = queue == null || queue.isBlank()
                ? reader.queues()
                : reader.queue(queue).thenApply(List::of);
        return queues.thenApply(qs -> {
            ReplyLines out = new ReplyLines();
            for (QueueFigures q : qs) {
                for (ConsumerFigures c : q.consumers()) {
                    out.put("consumer", c.consumer())
                            .put("queue", q.name())
                            .put("priority", c.priority())
                            .put("credits", c.credits())
                            .put("inFlight", c.inFlight())
                            .put("inFlightBytes", c.inFlightBytes())
                            .put("delivered", c.delivered())
                            .put("acknowledged", c.acknowledged())
                            .put(
                                    "partitions",
                                    String.join(
                                            ",",
                                            c.partitions().stream()
                                                    .map(String::valueOf)
                                                    .toList()))
                            .put("selector", c.selector());
                }
            }
            return out.toString();
        });
    }

    private static String subscriptions(List<SubscriptionView> subs) {
        ReplyLines out = new ReplyLines();
        for (SubscriptionView s : subs) {
            out.put("subscription", s.name())
                    .put("kind", s.kind())
                    .put("queue", s.queue())
                    .put("topic", s.topic())
                    .put("selector", s.selector())
                    .put("consumers", s.consumers());
        }
        return out.toString();
    }

    private static String connections(List<ConnectionInfo> conns) {
        ReplyLines out = new ReplyLines();
        for (ConnectionInfo c : conns) {
            out.put("connection", c.remote())
                    .put("user", c.user())
                    .put("clientId", c.clientId())
                    .put("sessions", c.sessions())
                    .put("consumers", c.consumers())
                    .put("openedAt", Instant.ofEpochMilli(c.openedAt()))
                    .put("bytesIn", c.bytesIn())
                    .put("bytesOut", c.bytesOut());
        }
        return out.toString();
    }

    private static String status(NodeStatus s) {
        ReplyLines out = new ReplyLines()
                .put("node", s.name())
                .put("url", s.url())
                .put("dataDir", s.dataDir())
                .put("uptimeSeconds", s.uptimeMillis() / 1000)
                .put("authentication", s.authentication() ? "on" : "off")
                .put("queues", s.queues())
                .put("connections", s.connections())
                .put("sessions", s.sessions())
                .put("consumers", s.consumers())
                .put("heldMessages", s.heldMessages())
                .put("heldBytes", s.heldBytes())
                .put("storeBytes", s.storeBytes())
                .put("residentBytes", s.residentBytes())
                .put("residentBudgetBytes", s.residentBudgetBytes())
                .put("heapUsedBytes", s.heapUsedBytes())
                .put("heapMaxBytes", s.heapMaxBytes())
                .put("directUsedBytes", s.directUsedBytes())
                .put("directMaxBytes", s.directMaxBytes());
        if (s.messagesWritten() >= 0) {
            out.put("messagesWritten", s.messagesWritten()).put("entriesWritten", s.entriesWritten());
        }
        if (s.metricsPort() >= 0) {
            out.put("metricsPort", s.metricsPort());
        }
        return out.toString();
    }

    private String list() {
        StringBuilder sb = new StringBuilder();
        for (String name : broker.queueNames()) {
            sb.append("queue=").append(name).append('\n');
        }
        return sb.toString();
    }
}
