package org.partita.broker.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a node config file: one {@code name = value} per line, {@code #} comments. Every error
 * names the file, the line and the field, so an operator can fix it without guessing.
 *
 * <pre>
 * nodeName = node1
 * host = 127.0.0.1
 * port = 61700
 * data = ./data
 * autoCreateQueues = true
 * syncOnCommit = true
 * maxFrameSize = 16777216
 * # payloads of stored messages kept in memory (default: a share of the heap, docs/reliability.md)
 * residentBytes = 16777216
 * # authentication: a users file (see partita-node --hash-password) and what anonymous connections get
 * users = ./users.properties
 * allowAnonymous = false
 * # authorization: roles and their permissions (default: roles.properties beside the users file)
 * roles = ./roles.properties
 * # TLS on the node's port and its cluster links (plaintext stays open to loopback clients unless tls.plaintext = off)
 * tls.keyStore = ./node.p12
 * tls.keyStorePassword = change-me
 * # the Prometheus endpoint and the web console (off unless set)
 * metricsPort = 9100
 * # at most this many consumers get meters of their own (labelled consumer)
 * metrics.consumerLabels = 500
 * # queues declared here are created (or updated) at start: queue.NAME.OPTION = VALUE
 * queue.orders.partitions = 8
 * queue.orders.maxDeliveryAttempts = 5
 * # what clients may make the node hold (FlowLimits, docs/reliability.md)
 * limits.connections = 4096
 * # storage faults and space (docs/storage.md): retries after an I/O error, online compaction
 * storage.retryMaxMillis = 10000
 * storage.compactFillPercent = 50
 * </pre>
 */
public final class NodeConfigFile {
    private NodeConfigFile() {}

    /**
     * The config {@code file} sets over {@code base}. A memory budget it sets that does not fit this
     * JVM's heap is refused ({@link HeapFit}).
     */
    public static NodeConfig read(Path file, NodeConfig base) {
        return read(file, base, HeapBudgets.current());
    }

    /** As {@link #read(Path, NodeConfig)}, with the budgets checked against {@code heap}. */
    static NodeConfig read(Path file, NodeConfig base, HeapBudgets heap) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ConfigException("config file " + file + " does not exist (" + file.toAbsolutePath() + ")");
        } catch (java.nio.file.AccessDeniedException e) {
            throw new ConfigException("config file " + file + " cannot be read: permission denied");
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e.getMessage());
        }
        NodeConfig c = base;
        ClusterFields cluster = new ClusterFields(file);
        TlsFields tls = new TlsFields();
        Map<String, String> set = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            String where = file + ":" + (i + 1);
            if (eq <= 0) {
                throw new ConfigException(where + ": expected 'name = value', found '" + line + "'");
            }
            String name = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (name.startsWith("cluster.")) {
                cluster.set(name, value, where);
                set.put(name, where); // cluster.replicaLog.segmentBytes is a budget of the heap too
            } else if (name.startsWith("tls.")) {
                tls.set(name, value, where);
            } else {
                c = apply(c, name, value, where);
                set.put(name, where);
            }
        }
        c = tls.applyTo(cluster.applyTo(c));
        HeapFit.check(c, set, heap);
        return c;
    }

    private static NodeConfig apply(NodeConfig c, String name, String value, String where) {
        return switch (name) {
            case "nodeName" -> c.withNodeName(nonEmpty(value, name, where));
            case "host" -> c.withHost(nonEmpty(value, name, where));
            case "port" -> c.withPort(integer(value, name, where, 0, 65535));
            case "data" -> c.withDataDir(Path.of(nonEmpty(value, name, where)));
            case "autoCreateQueues" -> c.withAutoCreateQueues(bool(value, name, where));
            case "syncOnCommit" -> c.withSyncOnCommit(bool(value, name, where));
            case "maxFrameSize" -> c.withMaxFrameSize(integer(value, name, where, 1024, Integer.MAX_VALUE - 8));
            case "users" -> c.withUsersFile(Path.of(nonEmpty(value, name, where)));
            case "allowAnonymous" -> c.withAllowAnonymous(bool(value, name, where));
            case "roles" -> c.withSecurity(c.security().withRolesFile(Path.of(nonEmpty(value, name, where))));
            case "residentBytes" -> c.withResidentBytes(integer(value, name, where, 0, Integer.MAX_VALUE));
            case "metricsPort" -> c.withMetricsPort(integer(value, name, where, 0, 65535));
            case "ioThreads" -> c.withIoThreads(integer(value, name, where, 0, 1024));
            default -> {
                if (name.startsWith("queue.")) {
                    yield queue(c, name, value, where);
                }
                if (name.startsWith(LimitFields.PREFIX)) {
                    yield c.withLimits(LimitFields.apply(c.limits(), name, value, where));
                }
                if (name.startsWith(StorageSettings.PREFIX)) {
                    yield c.withStorage(c.storage().withField(name, value, where));
                }
                if (name.startsWith(MetricsSettings.PREFIX)) {
                    yield c.withMetrics(c.metrics().withField(name, value, where));
                }
                throw new ConfigException(where + ": unknown field '" + name + "'; known: nodeName, host, port, data,"
                        + " autoCreateQueues, syncOnCommit, maxFrameSize, users, allowAnonymous, roles, residentBytes, metricsPort, ioThreads,"
                        + " queue.<name>.<option>, " + LimitFields.NAMES + ", " + StorageSettings.NAMES + ", "
                        + MetricsSettings.NAMES + ", " + ClusterFields.NAMES + ", " + TlsFields.NAMES);
            }
        };
    }

    /** {@code queue.orders.partitions = 8}: the option is checked now, so errors name this line. */
    private static NodeConfig queue(NodeConfig c, String field, String value, String where) {
        int dot = field.lastIndexOf('.');
        String queue = dot > "queue.".length() ? field.substring("queue.".length(), dot) : "";
        String option = field.substring(dot + 1);
        if (queue.isEmpty() || option.isEmpty()) {
            throw new ConfigException(where + ": field '" + field + "' must look like queue.<name>.<option>");
        }
        try {
            org.partita.broker.core.queue.QueueOptions.DEFAULTS.with(option, value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": field '" + field + "': " + e.getMessage());
        }
        return c.withQueue(queue, option + "=" + value);
    }

    private static String nonEmpty(String v, String name, String where) {
        if (v.isEmpty()) {
            throw new ConfigException(where + ": field '" + name + "' needs a value");
        }
        return v;
    }

    static int integer(String v, String name, String where, int min, int max) {
        try {
            int i = Integer.parseInt(v);
            if (i >= min && i <= max) {
                return i;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new ConfigException(
                where + ": field '" + name + "' must be an integer from " + min + " to " + max + ", not '" + v + "'");
    }

    private static boolean bool(String v, String name, String where) {
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new ConfigException(where + ": field '" + name + "' must be true or false, not '" + v + "'");
    }
}
