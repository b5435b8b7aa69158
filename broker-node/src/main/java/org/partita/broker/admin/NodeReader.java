package org.partita.broker.admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.QueueFigures;
import org.partita.broker.core.queue.UnknownDestinationException;
import org.partita.broker.core.topic.SubscriptionView;
import org.partita.broker.store.StoreCounters;

/**
 * Reads the node's figures for whoever shows them: admin commands, the console, metrics. Queue
 * figures are read on each queue's executor, so the answers are futures.
 */
public final class NodeReader {
    private final Broker broker;
    private final NodeConfig config;
    private final ConnectionRegistry connections;
    private final Supplier<String> url;
    private final IntSupplier metricsPort;
    private final java.util.function.LongSupplier inFlightBytes;
    private final long startedAt = System.currentTimeMillis();

    /** @param inFlightBytes bytes counted in {@code limits.inFlightBytes} now: frames being read, sends not yet stored */
    public NodeReader(
            Broker broker,
            NodeConfig config,
            ConnectionRegistry connections,
            Supplier<String> url,
            IntSupplier metricsPort,
            java.util.function.LongSupplier inFlightBytes) {
        this.broker = broker;
        this.config = config;
        this.connections = connections;
        this.url = url;
        this.metricsPort = metricsPort;
        this.inFlightBytes = inFlightBytes;
    }

    /** Bytes counted in {@code limits.inFlightBytes} now: of frames being read, of sends not yet stored or queued, waiting to be written. */
    public long inFlightBytes() {
        return inFlightBytes.getAsLong();
    }

    public long inFlightLimitBytes() {
        return config.limits().inFlightBytes();
    }

    /** The cluster's members as this node's config lists them ({@code cluster.members}), sorted by name. */
    public String clusterMembers() {
        if (config.cluster() == null) {
            throw new IllegalArgumentException("this node is not a member of a cluster");
        }
        return config.cluster().memberList();
    }

    public String nodeName() {
        return config.nodeName();
    }

    /** One queue's figures; {@link UnknownDestinationException} if there is no such queue. */
    public CompletableFuture<QueueFigures> queue(String name) {
        return existing(name).figures();
    }

    /** Every queue's figures, sorted by name (queues deleted meanwhile are left out). */
    public CompletableFuture<List<QueueFigures>> queues() {
        List<CompletableFuture<QueueFigures>> figures = new ArrayList<>();
        for (String name : broker.queueNames()) {
            BrokerQueue q = broker.existingQueue(name);
            if (q != null) {
                figures.add(q.figures());
            }
        }
        return CompletableFuture.allOf(figures.toArray(CompletableFuture[]::new))
                .thenApply(v -> figures.stream().map(CompletableFuture::join).toList());
    }

    public List<SubscriptionView> subscriptions() {
        return broker.subscriptions().describe();
    }

    public List<ConnectionInfo> connections() {
        return connections.connections();
    }

    public ConnectionRegistry connectionRegistry() {
        return connections;
    }

    public BrokerQueue existing(String name) {
        BrokerQueue q = broker.existingQueue(name);
        if (q == null) {
            throw new UnknownDestinationException("queue '" + name + "' does not exist");
        }
        return q;
    }

    public CompletableFuture<NodeStatus> status() {
        return queues().thenApply(this::status);
    }

    private NodeStatus status(List<QueueFigures> queues) {
        List<ConnectionInfo> conns = connections();
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long held = 0;
        long heldBytes = 0;
        int consumers = 0;
        for (QueueFigures q : queues) {
            held += q.heldMessages();
            heldBytes += q.heldBytes();
            consumers += q.consumers().size();
        }
        return new NodeStatus(
                config.nodeName(),
                url.get(),
                config.dataDir().toAbsolutePath().normalize().toString(),
                System.currentTimeMillis() - startedAt,
                config.usersFile() != null,
                queues.size(),
                conns.size(),
                conns.stream().mapToInt(ConnectionInfo::sessions).sum(),
                consumers,
                held,
                heldBytes,
                storeBytes(),
                broker.payloadMemory().residentBytes(),
                config.residentBytes(),
                heap.getUsed(),
                heap.getMax(),
                directUsedBytes(),
                io.netty.util.internal.PlatformDependent.maxDirectMemory(),
                metricsPort.getAsInt(),
                broker.store().counters().map(StoreCounters::messagesWritten).orElse(-1L),
                broker.store().counters().map(StoreCounters::entriesWritten).orElse(-1L));
    }

    /** Bytes of the data folder on disk (journal and H2 files). */
    public long storeBytes() {
        try (Stream<Path> files = Files.walk(config.dataDir())) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(p -> {
                        try {
                            return Files.size(p);
                        } catch (IOException e) {
                            return 0; // removed while walking
                        }
                    })
                    .sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    public long residentBudgetBytes() {
        return config.residentBytes();
    }

    public Broker broker() {
        return broker;
    }

    static long directUsedBytes() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        return 0;
    }
}
