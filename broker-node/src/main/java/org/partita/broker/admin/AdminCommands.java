package org.partita.broker.admin;

import org.partita.broker.core.Broker;
import org.partita.broker.core.BrokerQueue;
import org.partita.broker.core.DestinationAddress;
import org.partita.broker.core.PartitionFigures;
import org.partita.broker.core.UnknownDestinationException;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The node's administrative commands (docs/admin.md). Answers are {@code name=value} lines so
 * that scripts and the client's {@code PartitaAdmin} read them alike.
 *
 * <ul>
 *   <li>{@code queue.update name?option=value&...}: creates the queue or changes its options</li>
 *   <li>{@code queue.options name}: the queue's options</li>
 *   <li>{@code queue.figures name}: depth, in flight, owner, state, oldest age, rate, hot, per partition</li>
 *   <li>{@code queue.delete name}: removes the queue and its messages</li>
 *   <li>{@code queue.list}: every queue with its depth</li>
 * </ul>
 */
public final class AdminCommands {
    private final Broker broker;

    public AdminCommands(Broker broker) {
        this.broker = broker;
    }

    public CompletableFuture<String> run(String command, String argument) {
        return switch (command) {
            case "queue.update" -> {
                DestinationAddress a = DestinationAddress.parse(require(argument, command));
                BrokerQueue q = broker.updateQueue(a.name(), a.queueOptions());
                yield CompletableFuture.completedFuture(options(q));
            }
            case "queue.options" -> CompletableFuture.completedFuture(options(existing(argument, command)));
            case "queue.figures" -> existing(argument, command).partitionFigures().thenApply(AdminCommands::figures);
            case "queue.delete" -> {
                existing(argument, command);
                broker.deleteQueue(argument);
                yield CompletableFuture.completedFuture("deleted=" + argument);
            }
            case "queue.list" -> CompletableFuture.completedFuture(list());
            default -> throw new IllegalArgumentException("unknown admin command '" + command
                    + "'; known: queue.update, queue.options, queue.figures, queue.delete, queue.list");
        };
    }

    private BrokerQueue existing(String name, String command) {
        BrokerQueue q = broker.existingQueue(require(name, command));
        if (q == null) {
            throw new UnknownDestinationException("queue '" + name + "' does not exist");
        }
        return q;
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

    static String figures(List<PartitionFigures> figures) {
        StringBuilder sb = new StringBuilder();
        for (PartitionFigures f : figures) {
            String p = "partition." + f.partition() + ".";
            sb.append(p).append("depth=").append(f.depth()).append('\n')
                    .append(p).append("inFlight=").append(f.inFlight()).append('\n')
                    .append(p).append("owner=").append(f.owner() == null ? "" : f.owner()).append('\n')
                    .append(p).append("state=").append(f.state()).append('\n')
                    .append(p).append("oldestAgeMillis=").append(f.oldestAgeMillis()).append('\n')
                    .append(p).append("delivered=").append(f.delivered()).append('\n')
                    .append(p).append("ratePerSecond=").append(String.format(java.util.Locale.ROOT, "%.1f", f.ratePerSecond())).append('\n')
                    .append(p).append("hot=").append(f.hot()).append('\n');
        }
        return sb.toString();
    }

    private String list() {
        StringBuilder sb = new StringBuilder();
        for (String name : broker.queueNames()) {
            sb.append("queue=").append(name).append('\n');
        }
        return sb.toString();
    }
}
