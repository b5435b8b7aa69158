package org.partita.broker.admin;

import org.partita.broker.core.Broker;
import org.partita.broker.core.BrokerQueue;
import org.partita.broker.core.PartitionFigures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Publishes {@link NodeMXBean} on the platform MBean server while the node runs. */
public final class NodeJmx implements NodeMXBean, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeJmx.class);

    private final Broker broker;
    private final ObjectName name;

    public NodeJmx(Broker broker, String nodeName) {
        this.broker = broker;
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

    @Override
    public String[] getQueueNames() {
        return broker.queueNames().toArray(String[]::new);
    }

    @Override
    public String[] partitionTable(String queue) {
        return figures(queue).stream().map(f -> "partition=" + f.partition() + " depth=" + f.depth() + " inFlight="
                + f.inFlight() + " owner=" + f.owner() + " state=" + f.state() + " oldestAgeMillis=" + f.oldestAgeMillis()
                + " delivered=" + f.delivered() + " ratePerSecond=" + String.format(java.util.Locale.ROOT, "%.1f", f.ratePerSecond())
                + " hot=" + f.hot()).toArray(String[]::new);
    }

    @Override
    public int hotPartition(String queue) {
        return figures(queue).stream().filter(PartitionFigures::hot)
                .max(java.util.Comparator.comparingInt(PartitionFigures::depth)).map(PartitionFigures::partition).orElse(-1);
    }

    private List<PartitionFigures> figures(String queue) {
        BrokerQueue q = broker.existingQueue(queue);
        if (q == null) {
            throw new IllegalArgumentException("queue '" + queue + "' does not exist");
        }
        try {
            return q.partitionFigures().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not read the figures of queue '" + queue + "': " + e);
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
