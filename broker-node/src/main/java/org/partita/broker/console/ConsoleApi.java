package org.partita.broker.console;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.partita.broker.admin.ConnectionInfo;
import org.partita.broker.admin.NodeReader;
import org.partita.broker.admin.NodeStatus;
import org.partita.broker.core.dispatch.ConsumerFigures;
import org.partita.broker.core.partition.PartitionFigures;
import org.partita.broker.core.queue.QueueFigures;
import org.partita.broker.core.topic.SubscriptionView;
import org.partita.broker.http.Responses;

/**
 * {@code GET /api/overview}: everything the console shows, as one JSON document (node, queues with
 * their partitions, consumers, subscriptions, connections, dead-letter queues). Read-only. A
 * figure that is not measured is left out of its object.
 */
public final class ConsoleApi implements HttpHandler {
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

    private final NodeReader reader;

    public ConsoleApi(NodeReader reader) {
        this.reader = reader;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        if (Responses.refuseUnlessGet(exchange)) {
            return;
        }
        if (!exchange.getRequestURI().getPath().equals("/api/overview")) {
            Responses.text(exchange, 404, "not found; the console reads /api/overview\n");
            return;
        }
        Map<String, Object> overview;
        try {
            overview = overview();
        } catch (Exception e) {
            Responses.text(exchange, 503, "the node's figures could not be read: " + e + "\n");
            return;
        }
        Responses.send(
                exchange,
                200,
                "application/json; charset=utf-8",
                GSON.toJson(overview).getBytes(StandardCharsets.UTF_8));
    }

    Map<String, Object> overview() throws Exception {
        List<QueueFigures> queues = reader.queues().get(10, TimeUnit.SECONDS);
        NodeStatus status = reader.status().get(10, TimeUnit.SECONDS);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("node", node(status));
        List<Object> qs = new ArrayList<>();
        List<Object> consumers = new ArrayList<>();
        Set<String> deadLetterNames = new TreeSet<>();
        for (QueueFigures q : queues) {
            qs.add(queue(q));
            for (ConsumerFigures c : q.consumers()) {
                consumers.add(consumer(q.name(), c));
            }
            if (!q.options().deadLetterQueue().isEmpty()) {
                deadLetterNames.add(q.options().deadLetterQueue());
            }
        }
        out.put("queues", qs);
        out.put("consumers", consumers);
        out.put(
                "subscriptions",
                reader.subscriptions().stream().map(ConsoleApi::subscription).toList());
        out.put(
                "connections",
                reader.connections().stream().map(ConsoleApi::connection).toList());
        List<Object> dlqs = new ArrayList<>();
        for (QueueFigures q : queues) {
            if (deadLetterNames.contains(q.name())) {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("name", q.name());
                d.put("depth", q.depth());
                putIfPresent(d, "oldestAgeMillis", q.oldestAgeMillis());
                dlqs.add(d);
            }
        }
        out.put("deadLetterQueues", dlqs);
        return out;
    }

    private static Map<String, Object> node(NodeStatus s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.name());
        m.put("url", s.url());
        m.put("dataDir", s.dataDir());
        m.put("uptimeMillis", s.uptimeMillis());
        m.put("authentication", s.authentication());
        m.put("queues", s.queues());
        m.put("connections", s.connections());
        m.put("sessions", s.sessions());
        m.put("consumers", s.consumers());
        m.put("heldMessages", s.heldMessages());
        m.put("heldBytes", s.heldBytes());
        m.put("storeBytes", s.storeBytes());
        m.put("residentBytes", s.residentBytes());
        m.put("residentBudgetBytes", s.residentBudgetBytes());
        m.put("heapUsedBytes", s.heapUsedBytes());
        m.put("heapMaxBytes", s.heapMaxBytes());
        m.put("directUsedBytes", s.directUsedBytes());
        m.put("directMaxBytes", s.directMaxBytes());
        return m;
    }

    private static Map<String, Object> queue(QueueFigures q) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", q.name());
        m.put("mode", q.options().mode());
        m.put("depth", q.depth());
        m.put("inFlight", q.inFlight());
        m.put("heldBytes", q.heldBytes());
        m.put("consumers", q.consumers().size());
        putIfPresent(m, "oldestAgeMillis", q.oldestAgeMillis());
        counts(m, q.totals());
        List<Object> partitions = new ArrayList<>();
        for (PartitionFigures p : q.partitions()) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("partition", p.partition());
            pm.put("depth", p.current().depth());
            pm.put("inFlight", p.current().inFlight());
            pm.put("state", p.current().state());
            if (p.current().owner() != null) {
                pm.put("owner", p.current().owner());
            }
            putIfPresent(pm, "oldestAgeMillis", p.oldestAgeMillis());
            pm.put("hot", p.current().hot());
            counts(pm, p.counts());
            partitions.add(pm);
        }
        m.put("partitions", partitions);
        return m;
    }

    private static void counts(Map<String, Object> m, PartitionFigures.Counts c) {
        m.put("enqueued", c.enqueued());
        m.put("delivered", c.delivered());
        m.put("acknowledged", c.acknowledged());
        m.put("redelivered", c.redelivered());
        m.put("deadLettered", c.deadLettered());
        m.put("expired", c.expired());
        m.put("handoffs", c.handoffs());
        m.put("ratePerSecond", Math.round(c.ratePerSecond() * 100) / 100.0);
    }

    private static Map<String, Object> consumer(String queue, ConsumerFigures c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("consumer", c.consumer());
        m.put("queue", queue);
        m.put("priority", c.priority());
        m.put("credits", c.credits());
        m.put("inFlight", c.inFlight());
        m.put("delivered", c.delivered());
        m.put("acknowledged", c.acknowledged());
        m.put("partitions", c.partitions());
        m.put("selector", c.selector());
        return m;
    }

    private static Map<String, Object> subscription(SubscriptionView s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.name());
        m.put("kind", s.kind());
        m.put("queue", s.queue());
        m.put("topic", s.topic());
        m.put("selector", s.selector());
        m.put("consumers", s.consumers());
        return m;
    }

    private static Map<String, Object> connection(ConnectionInfo c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("remote", c.remote());
        m.put("user", c.user());
        m.put("clientId", c.clientId());
        m.put("sessions", c.sessions());
        m.put("consumers", c.consumers());
        m.put("openedAt", c.openedAt());
        m.put("bytesIn", c.bytesIn());
        m.put("bytesOut", c.bytesOut());
        return m;
    }

    private static void putIfPresent(Map<String, Object> m, String name, OptionalLong v) {
        if (v.isPresent()) {
            m.put(name, v.getAsLong());
        }
    }
}
