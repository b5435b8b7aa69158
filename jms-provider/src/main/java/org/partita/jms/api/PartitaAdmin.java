package org.partita.jms.api;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.partita.jms.client.PartitaConnection;

/**
 * Administers a node's queues over an ordinary connection (docs/admin.md):
 *
 * <pre>{@code
 * try (PartitaAdmin admin = PartitaAdmin.connect(connectionFactory)) {
 *     admin.updateQueue("orders", Map.of("partitions", "8", "maxDeliveryAttempts", "5"));
 *     admin.updateQueue("events", Map.of("mode", "fanout", "appIds", "billing,audit"));
 *     for (PartitaAdmin.Partition p : admin.partitions("orders")) {
 *         if (p.hot()) System.out.println("partition " + p.partition() + " is hot: " + p.depth());
 *     }
 * }
 * }</pre>
 */
public final class PartitaAdmin implements AutoCloseable {
    private final PartitaConnection connection;
    private final boolean owned;

    private PartitaAdmin(PartitaConnection connection, boolean owned) {
        this.connection = connection;
        this.owned = owned;
    }

    /** Opens its own connection; {@link #close()} closes it. */
    public static PartitaAdmin connect(ConnectionFactory factory) throws JMSException {
        Connection c = factory.createConnection();
        if (!(c instanceof PartitaConnection pc)) {
            c.close();
            throw new JMSException("not a Partita connection factory: " + factory);
        }
        return new PartitaAdmin(pc, true);
    }

    /** Uses an existing Partita connection, which stays open after {@link #close()}. */
    public static PartitaAdmin on(Connection connection) throws JMSException {
        if (!(connection instanceof PartitaConnection pc)) {
            throw new JMSException("not a Partita connection: " + connection);
        }
        return new PartitaAdmin(pc, false);
    }

    /** Creates the queue with these options, or changes the options of an existing one; returns all its options. */
    public Map<String, String> updateQueue(String name, Map<String, String> options) throws JMSException {
        StringBuilder arg = new StringBuilder(name);
        char sep = '?';
        for (Map.Entry<String, String> e : options.entrySet()) {
            arg.append(sep).append(enc(e.getKey())).append('=').append(enc(e.getValue()));
            sep = '&';
        }
        return AdminReplies.lines(connection.admin("queue.update", arg.toString()));
    }

    public Map<String, String> queueOptions(String name) throws JMSException {
        return AdminReplies.lines(connection.admin("queue.options", name));
    }

    public void deleteQueue(String name) throws JMSException {
        connection.admin("queue.delete", name);
    }

    public List<String> queues() throws JMSException {
        List<String> out = new ArrayList<>();
        for (String line : connection.admin("queue.list", null).split("\n")) {
            if (line.startsWith("queue=")) {
                out.add(line.substring("queue=".length()));
            }
        }
        return out;
    }

    /** Per-partition figures; a plain queue answers one row with state SHARED. */
    public List<Partition> partitions(String queue) throws JMSException {
        Map<Integer, Map<String, String>> rows = new TreeMap<>();
        for (Map.Entry<String, String> e :
                AdminReplies.lines(connection.admin("queue.figures", queue)).entrySet()) {
            String[] parts = e.getKey().split("\\.", 3);
            rows.computeIfAbsent(Integer.parseInt(parts[1]), k -> new LinkedHashMap<>())
                    .put(parts[2], e.getValue());
        }
        List<Partition> out = new ArrayList<>();
        rows.forEach((p, r) -> out.add(new Partition(
                p,
                Integer.parseInt(r.get("depth")),
                Integer.parseInt(r.get("inFlight")),
                r.get("owner").isEmpty() ? null : r.get("owner"),
                r.get("state"),
                AdminReplies.optionalLong(r, "oldestAgeMillis"),
                Long.parseLong(r.get("enqueued")),
                Long.parseLong(r.get("delivered")),
                Long.parseLong(r.get("acknowledged")),
                Long.parseLong(r.get("redelivered")),
                Long.parseLong(r.get("deadLettered")),
                Long.parseLong(r.get("expired")),
                Long.parseLong(r.get("handoffs")),
                Double.parseDouble(r.get("ratePerSecond")),
                Boolean.parseBoolean(r.get("hot")))));
        return out;
    }

    /**
     * One partition's figures, as {@code queue.figures} reports them. The counts start when the
     * node starts; {@code oldestAgeMillis} is empty when nothing waits or the oldest message has no
     * JMS timestamp; {@code ratePerSecond} is deliveries per second over the last minute.
     */
    public record Partition(
            int partition,
            int depth,
            int inFlight,
            String owner,
            String state,
            OptionalLong oldestAgeMillis,
            long enqueued,
            long delivered,
            long acknowledged,
            long redelivered,
            long deadLettered,
            long expired,
            long handoffs,
            double ratePerSecond,
            boolean hot) {}

    /** A queue's figures ({@code queue.stat}). */
    public QueueStats queueStats(String queue) throws JMSException {
        return QueueStats.of(AdminReplies.blocks(connection.admin("queue.stat", queue), "queue")
                .get(0));
    }

    /** Every queue's figures, sorted by name. */
    public List<QueueStats> queueStats() throws JMSException {
        return AdminReplies.blocks(connection.admin("queue.stat", null), "queue").stream()
                .map(QueueStats::of)
                .toList();
    }

    /** Removes the messages waiting in a queue (not those delivered and unacknowledged); returns how many. */
    public int purgeQueue(String queue) throws JMSException {
        return Integer.parseInt(
                AdminReplies.lines(connection.admin("queue.purge", queue)).get("purged"));
    }

    /**
     * Moves waiting messages of {@code from} (a dead-letter queue, usually) to {@code to}, or with a
     * null {@code to} each back to the queue it came from ({@link PartitaProperties#ORIGINAL_DESTINATION}
     * for a dead letter, else the queue it was sent to). An empty {@code messageIds} moves all.
     */
    public Moved moveMessages(String from, String to, Collection<String> messageIds) throws JMSException {
        StringBuilder arg = new StringBuilder(from);
        char sep = '?';
        if (to != null) {
            arg.append(sep).append("to=").append(enc(to));
            sep = '&';
        }
        if (!messageIds.isEmpty()) {
            arg.append(sep)
                    .append("messageIds=")
                    .append(String.join(
                            ",", messageIds.stream().map(PartitaAdmin::enc).toList()));
        }
        Map<String, String> r = AdminReplies.lines(connection.admin("message.move", arg.toString()));
        return new Moved(Integer.parseInt(r.get("moved")), Integer.parseInt(r.get("left")));
    }

    /** @param left messages selected that stayed: they name no queue that can take them back */
    public record Moved(int moved, int left) {}

    /** Consumers of one queue, or of every queue with a null {@code queue}: one map per consumer ({@code consumer.list}). */
    public List<Map<String, String>> consumers(String queue) throws JMSException {
        return AdminReplies.blocks(connection.admin("consumer.list", queue), "consumer");
    }

    /** Topic subscriptions and queue feeds: one map each ({@code subscription.list}). */
    public List<Map<String, String>> subscriptions() throws JMSException {
        return AdminReplies.blocks(connection.admin("subscription.list", null), "subscription");
    }

    /** Open client connections: one map each ({@code connection.list}). */
    public List<Map<String, String>> connections() throws JMSException {
        return AdminReplies.blocks(connection.admin("connection.list", null), "connection");
    }

    /**
     * The cluster as this node sees it ({@code cluster.status}): {@code cluster}, {@code node},
     * {@code leader} (the node ordering definition changes), {@code member.<node>} ({@code self},
     * {@code up} or {@code down} with its address), {@code queue.<q>.partition.<p>.host}, and as its
     * host reports them {@code .depth}, {@code .inFlight}, {@code .owner} (the owning consumer) and
     * {@code .ownerNode} (the node whose client consumes it), and {@code queue.<q>.forwardBacklog.<node>}
     * (messages waiting here to go to that node); docs/cluster.md. Fails on a node that is not a
     * member of a cluster.
     */
    public Map<String, String> clusterStatus() throws JMSException {
        return AdminReplies.lines(connection.admin("cluster.status", null));
    }

    /**
     * The node's name, address, uptime, sizes and memory ({@code node.status}), and what its store
     * has written since it started ({@code messagesWritten}, {@code entriesWritten}); docs/admin.md.
     */
    public Map<String, String> nodeStatus() throws JMSException {
        return AdminReplies.lines(connection.admin("node.status", null));
    }

    /**
     * XA branches in doubt on the node: prepared and waiting for their transaction manager, or
     * completed by hand and waiting to be forgotten ({@code xa.list}).
     */
    public List<InDoubtTransaction> inDoubtTransactions() throws JMSException {
        List<InDoubtTransaction> out = new ArrayList<>();
        for (Map<String, String> b : AdminReplies.blocks(connection.admin("xa.list", null), "branch")) {
            String at = b.get("preparedAt");
            out.add(new InDoubtTransaction(
                    b.get("branch"),
                    b.get("state"),
                    Integer.parseInt(b.get("sent")),
                    Integer.parseInt(b.get("consumed")),
                    at == null ? null : java.time.Instant.parse(at),
                    Boolean.parseBoolean(b.get("restored"))));
        }
        return out;
    }

    /**
     * An XA branch in doubt.
     *
     * @param xid        {@code formatId:gtridHex:bqualHex}, as the other methods take it
     * @param state      {@code PREPARED}, {@code HEURISTIC_COMMITTED} or {@code HEURISTIC_ROLLED_BACK}
     * @param sent       messages it sends when it commits
     * @param consumed   messages it consumes when it commits
     * @param preparedAt when it was prepared; null once completed by hand
     * @param restored   whether the node read it back from its store at start-up
     */
    public record InDoubtTransaction(
            String xid, String state, int sent, int consumed, java.time.Instant preparedAt, boolean restored) {}

    /**
     * Commits a prepared branch by hand, when its transaction manager is gone for good. The node
     * keeps the decision and tells the transaction manager (XA_HEURCOM) if it comes back, until it
     * forgets the branch.
     */
    public void commitTransaction(String xid) throws JMSException {
        connection.admin("xa.commit", xid);
    }

    /** Rolls a prepared branch back by hand; see {@link #commitTransaction}. */
    public void rollbackTransaction(String xid) throws JMSException {
        connection.admin("xa.rollback", xid);
    }

    /** Forgets a branch completed by hand. */
    public void forgetTransaction(String xid) throws JMSException {
        connection.admin("xa.forget", xid);
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws JMSException {
        if (owned) {
            connection.close();
        }
    }
}
