package org.partita.broker.admin;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.partita.broker.core.queue.QueueFigures;
import org.partita.broker.core.queue.UnknownDestinationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Publishes {@link NodeMXBean} on the platform MBean server while the node runs. */
public final class NodeJmx implements NodeMXBean, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeJmx.class);

    private final NodeReader reader;
    private volatile java.util.function.Supplier<String> cluster = () -> "";
    private final ObjectName name;

    public NodeJmx(NodeReader reader, String nodeName) {
        this.reader = reader;
        ObjectName n = null;
        try {
            n = ObjectName.getInstance("org.partita:type=Node,name=" + ObjectName.quote(nodeName));
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            if (!server.isRegistered(n)) {
                server.registerMBean(this, n);
            } else {
                LOG.info("JMX name {} is taken (another node in this JVM); not registering", n);
                n = null;
            }
        } catch (JMException e) {
            LOG.warn("cannot register the node's JMX bean: {}", e.toString());
            n = null;
        }
        this.name = n;
    }

    /** Where {@link #getClusterStatus} reads the cluster's state from, on a node that belongs to one. */
    public void clusterStatus(java.util.function.Supplier<String> status) {
        this.cluster = status;
    }

    @Override
    public String[] getClusterStatus() {
        String s = cluster.get();
        return s.isEmpty() ? new String[0] : s.split("\n");
    }

    @Override
    public String[] getQueueNames() {
        return reader.broker().queueNames().toArray(String[]::new);
    }

    @Override
    public String[] queueTable() {
        return lines(AdminCommands.stats(await(reader.queues(), "the queues")), "queue");
    }

    @Override
    public String[] partitionTable(String queue) {
        String figures = AdminCommands.figures(queueFigures(queue));
        // partition.3.depth=30 lines become one line per partition: partition=3 depth=30 ...
        StringBuilder text = new StringBuilder();
        String current = null;
        for (String line : figures.split("\n")) {
            String[] parts = line.split("\\.", 3);
            if (!parts[1].equals(current)) {
                current = parts[1];
                text.append('\n').append("partition=").append(current);
            }
            text.append(' ').append(parts[2]);
        }
        return text.substring(1).split("\n");
    }

    @Override
    public int hotPartition(String queue) {
        return queueFigures(queue).partitions().stream()
                .filter(p -> p.current().hot())
                .max(java.util.Comparator.comparingInt(p -> p.current().depth()))
                .map(p -> p.partition())
                .orElse(-1);
    }

    @Override
    public String[] inDoubtTransactions() {
        return lines(XaAdmin.list(reader.broker().xa().inDoubt()), "branch");
    }

    @Override
    public void commitTransaction(String xid) {
        resolve(xid, true);
    }

    @Override
    public void rollbackTransaction(String xid) {
        resolve(xid, false);
    }

    private void resolve(String xid, boolean commit) {
        try {
            reader.broker()
                    .xa()
                    .resolve(org.partita.protocol.WireXid.parse(xid), commit)
                    .get(30, TimeUnit.SECONDS);
            // the same operator log line as xa.commit / xa.rollback over the protocol
            AdminCommands.changed(
                    AdminCaller.JMX,
                    commit ? "xa.commit" : "xa.rollback",
                    xid,
                    commit ? "committed=true" : "rolledBack=true");
        } catch (org.partita.broker.core.xa.XaError e) {
            throw new IllegalStateException(e.getMessage());
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage());
        } catch (Exception e) {
            throw new IllegalStateException("could not complete branch " + xid + ": " + e);
        }
    }

    /** Joins the {@code name=value} lines of each block (opened by {@code key=...}) into one line. */
    private static String[] lines(String blocks, String key) {
        List<String> out = new java.util.ArrayList<>();
        for (String line : blocks.split("\n")) {
            if (line.startsWith(key + "=") || out.isEmpty()) {
                out.add(line);
            } else {
                out.set(out.size() - 1, out.get(out.size() - 1) + " " + line);
            }
        }
        return out.stream().filter(s -> !s.isEmpty()).toArray(String[]::new);
    }

    private QueueFigures queueFigures(String queue) {
        try {
            return await(reader.queue(queue), "queue '" + queue + "'");
        } catch (UnknownDestinationException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static <T> T await(CompletableFuture<T> f, String what) {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not read the figures of " + what + ": " + e);
        }
    }

    @Override
    public void close() {
        if (name != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (JMException e) {
                LOG.debug("unregister {}: {}", name, e.toString());
            }
        }
    }
}
