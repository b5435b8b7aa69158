package org.partita.samples.spring;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.samples.support.KeyOrderLedger;
import org.partita.samples.support.Sample;
import org.partita.samples.support.SampleNode;
import org.partita.samples.support.SampleQueues;
import org.partita.samples.support.Story;
import org.partita.samples.support.Verdict;
import org.partita.samples.support.Waiting;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A small Spring application without Boot: a {@code JmsTemplate} sends the events of many orders
 * (created, paid, picked, packed, shipped), keyed by order id, to a partitioned queue; a
 * {@code DefaultMessageListenerContainer} with four threads consumes them. The node gives each
 * partition to one thread at a time, so each order's events are handled in order while four
 * threads work.
 */
@Command(
        name = "spring-orders",
        description = "Spring without Boot: JmsTemplate and DefaultMessageListenerContainer (4 threads) on a "
                + "partitioned queue; each order's events stay in order")
public final class SpringOrders extends Sample {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @Option(names = "--orders", defaultValue = "40", description = "Orders (default: ${DEFAULT-VALUE}).")
    int orders;

    @Option(
            names = "--pace-millis",
            defaultValue = "10",
            description = "Pause between two sends, in milliseconds (default: ${DEFAULT-VALUE}).")
    long paceMillis;

    public static void main(String[] args) {
        exit(new SpringOrders(), args);
    }

    @Override
    protected void checkOptions() {
        requireAtLeast("--orders", orders, 1);
        requireAtLeast("--pace-millis", paceMillis, 0);
    }

    @Override
    protected Verdict run(SampleNode node, Story story) throws Exception {
        try (SampleQueues queues = SampleQueues.on(new PartitaConnectionFactory(node.url()));
                AnnotationConfigApplicationContext spring = new AnnotationConfigApplicationContext()) {
            queues.own("order-events"); // created with 4 partitions when the application first names it
            spring.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource("sample", Map.of("partita.url", node.url())));
            spring.register(OrderMessagingConfig.class);
            spring.refresh();
            story.say(
                    "Spring started: a JmsTemplate and a DefaultMessageListenerContainer with %d threads on %s",
                    OrderMessagingConfig.LISTENER_THREADS, OrderMessagingConfig.ORDER_EVENTS);
            // the container opens its consumers in the background: wait until the node has spread the
            // partitions over all of them, so that the run shows four threads at work
            boolean spread = Waiting.until(LIMIT, () -> owners(queues) == OrderMessagingConfig.LISTENER_THREADS);
            story.say(
                    "the node gave each of the %d consumers one partition (each partition has one owner at a time)",
                    owners(queues));

            story.part("The order desk sends " + OrderDesk.EVENTS.length + " events for each of " + orders + " orders");
            OrderDesk desk = spring.getBean(OrderDesk.class);
            OrderEventHandler handler = spring.getBean(OrderEventHandler.class);
            Map<String, Integer> sent = new HashMap<>();
            for (int seq = 1; seq <= OrderDesk.EVENTS.length; seq++) {
                for (int o = 1; o <= orders; o++) {
                    String order = String.format("order-%03d", o);
                    desk.publish(order, seq);
                    sent.put(order, seq);
                    Thread.sleep(paceMillis);
                }
                story.say(
                        "every order is %s; handled per thread so far: %s",
                        OrderDesk.EVENTS[seq - 1], handler.perThread());
            }
            int total = orders * OrderDesk.EVENTS.length;
            KeyOrderLedger ledger = handler.ledger();
            boolean allHandled = Waiting.until(LIMIT, () -> ledger.applied() >= total);
            story.say(
                    "%d events sent, %d handled, %d redelivered duplicates ignored",
                    total, ledger.applied(), ledger.duplicatesIgnored());
            for (PartitaAdmin.Partition p : queues.partitions("order-events")) {
                story.plain("partition %d: %d events delivered, owner %s", p.partition(), p.delivered(), p.owner());
            }
            Map<String, Long> perThread = handler.perThread();
            return new Verdict()
                    .check(
                            "every event was handled exactly once",
                            allHandled && ledger.holdsExactly(sent),
                            ledger.applied() + " of " + total)
                    .check("each order's events were handled in order", ledger.faults() == 0, ledger.faultSummary())
                    .check(
                            "all " + OrderMessagingConfig.LISTENER_THREADS + " listener threads handled events",
                            spread && perThread.size() == OrderMessagingConfig.LISTENER_THREADS,
                            perThread.toString());
        }
    }

    private static int owners(SampleQueues queues) {
        try {
            return queues.owners("order-events").size();
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException("cannot read the figures of order-events", e);
        }
    }
}
