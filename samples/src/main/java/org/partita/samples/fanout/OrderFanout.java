package org.partita.samples.fanout;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.naming.Context;
import javax.naming.InitialContext;
import org.partita.samples.support.Sample;
import org.partita.samples.support.SampleNode;
import org.partita.samples.support.SampleQueues;
import org.partita.samples.support.StoreWrites;
import org.partita.samples.support.Story;
import org.partita.samples.support.Verdict;
import org.partita.samples.support.Waiting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The third source document's fan-out: one queue {@code orders} with the AppIds billing, audit
 * and shipping. Each application gets every order and works at its own pace: billing is quick,
 * audit slow, shipping starts only after every order was sent and still finds them all. The node
 * stores each order's payload once, with a small entry per AppId.
 */
@Command(
        name = "order-fanout",
        description =
                "Fan-out: billing, audit and shipping each receive every order at their own pace from one stored copy")
public final class OrderFanout extends Sample {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @Option(names = "--orders", defaultValue = "40", description = "Orders sent (default: ${DEFAULT-VALUE}).")
    int orders;

    public static void main(String[] args) {
        exit(new OrderFanout(), args);
    }

    @Override
    protected void checkOptions() {
        requireAtLeast("--orders", orders, 1);
    }

    @Override
    protected Verdict run(SampleNode node, Story story) throws Exception {
        Hashtable<String, Object> env = node.jndiEnvironment();
        // each application's jndi.properties names the queue with its own AppId
        env.put("queue.orders", "orders");
        env.put("queue.billing", "orders?appId=billing");
        env.put("queue.audit", "orders?appId=audit");
        env.put("queue.shipping", "orders?appId=shipping");
        Context jndi = new InitialContext(env);
        ConnectionFactory factory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        List<OrderApp> apps = new ArrayList<>();
        try (SampleQueues queues = SampleQueues.on(factory);
                JMSContext desk = factory.createContext()) {
            queues.declare("orders", Map.of("mode", "fanout", "appIds", "billing,audit,shipping"));
            story.say("declared orders: mode=fanout, appIds=billing,audit,shipping");

            story.part("Billing (quick) and audit (20 ms an order) run; shipping is not started yet");
            apps.add(new OrderApp("billing", factory, (Queue) jndi.lookup("billing"), 0));
            apps.add(new OrderApp("audit", factory, (Queue) jndi.lookup("audit"), 20));
            JMSProducer producer = desk.createProducer();
            Queue orderQueue = (Queue) jndi.lookup("orders");
            StoreWrites beforeSending = queues.storeWrites();
            for (int i = 1; i <= orders; i++) {
                producer.setProperty("order", i).send(orderQueue, "order " + i);
            }
            // persistent sends return once stored, so the store's figures already count them
            StoreWrites stored = queues.storeWrites().since(beforeSending);
            story.say("the order desk sent %d orders to orders, once each; the store wrote %s", orders, stored);
            story.say("not yet acknowledged: %s", waiting(queues));
            OrderApp billing = apps.get(0);
            boolean billingDone = Waiting.until(LIMIT, () -> billing.count() == orders);
            story.say(
                    "billing has all %d; audit is at %d; not yet acknowledged: %s",
                    billing.count(), apps.get(1).count(), waiting(queues));

            story.part("Shipping starts late and catches up");
            apps.add(new OrderApp("shipping", factory, (Queue) jndi.lookup("shipping"), 5));
            boolean allDone = Waiting.until(LIMIT, () -> apps.stream().allMatch(a -> a.count() == orders));
            story.say(
                    "received: %s",
                    apps.stream().map(a -> a.appId() + " " + a.count()).collect(Collectors.joining(", ")));
            boolean nothingLeft = Waiting.until(LIMIT, () -> totalWaiting(queues) == 0);
            story.say(
                    "not yet acknowledged: %s; the node stored each order's payload once, with a small entry per AppId, and "
                            + "removes it when the last AppId has acknowledged it",
                    waiting(queues));
            int appIds = apps.size();

            List<Integer> sent = IntStream.rangeClosed(1, orders).boxed().toList();
            Verdict verdict = new Verdict();
            for (OrderApp app : apps) {
                verdict.check(
                        app.appId() + " received every order once, in the order sent",
                        app.received().equals(sent),
                        app.count() + " of " + orders);
            }
            return verdict.check(
                            "orders waited for shipping until it started",
                            billingDone && allDone,
                            "billing had all " + orders + " before shipping attached; then shipping received "
                                    + apps.get(2).count())
                    .check(
                            "each order was stored once, with one entry per AppId",
                            stored.messages() == orders && stored.entries() == (long) orders * appIds,
                            "sending " + orders + " orders to " + appIds + " AppIds, the store wrote " + stored)
                    .check("nothing is left once every AppId has acknowledged", nothingLeft, waiting(queues));
        } finally {
            for (OrderApp app : apps) {
                app.close();
            }
            jndi.close();
        }
    }

    private static String waiting(SampleQueues queues) {
        return List.of("billing", "audit", "shipping").stream()
                .map(app -> app + " " + depth(queues, app))
                .collect(Collectors.joining(", "));
    }

    private static int totalWaiting(SampleQueues queues) {
        return List.of("billing", "audit", "shipping").stream()
                .mapToInt(app -> depth(queues, app))
                .sum();
    }

    /** Orders {@code app} has not acknowledged yet: each AppId has its own queue, {@code orders#<app>}. */
    private static int depth(SampleQueues queues, String app) {
        try {
            return queues.unacknowledged("orders#" + app);
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException("cannot read the figures of orders#" + app, e);
        }
    }
}
