package org.partita.jms.api;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import org.partita.jms.client.PartitaConnection;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
        return lines(connection.admin("queue.update", arg.toString()));
    }

    public Map<String, String> queueOptions(String name) throws JMSException {
        return lines(connection.admin("queue.options", name));
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
        for (Map.Entry<String, String> e : lines(connection.admin("queue.figures", queue)).entrySet()) {
            String[] parts = e.getKey().split("\\.", 3);
            rows.computeIfAbsent(Integer.parseInt(parts[1]), k -> new LinkedHashMap<>()).put(parts[2], e.getValue());
        }
        List<Partition> out = new ArrayList<>();
        rows.forEach((p, r) -> out.add(new Partition(p, Integer.parseInt(r.get("depth")), Integer.parseInt(r.get("inFlight")),
                r.get("owner").isEmpty() ? null : r.get("owner"), r.get("state"), Long.parseLong(r.get("oldestAgeMillis")),
                Long.parseLong(r.get("delivered")), Double.parseDouble(r.get("ratePerSecond")), Boolean.parseBoolean(r.get("hot")))));
        return out;
    }

    /** One partition's figures, as {@code queue.figures} reports them. */
    public record Partition(int partition, int depth, int inFlight, String owner, String state, long oldestAgeMillis,
                            long delivered, double ratePerSecond, boolean hot) {
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static Map<String, String> lines(String body) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : body.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return m;
    }

    @Override
    public void close() throws JMSException {
        if (owned) {
            connection.close();
        }
    }
}
