package org.partita.spring.boot;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.partita.jms.client.ClientStatistics;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The client's counts ({@link ClientStatistics}) of one connection factory as Micrometer meters, tagged
 * with the factory's nodes ({@code url}, its URL without options):
 *
 * <ul>
 *   <li>{@code partita.client.connections.open} (gauge): connections open now;
 *   <li>{@code partita.client.connections.opened}: connections opened;
 *   <li>{@code partita.client.failovers}: connections that lost their node and went on with another;
 *   <li>{@code partita.client.messages.sent}: messages sent (confirmed by the node, or written when it
 *       does not confirm: non-persistent);
 *   <li>{@code partita.client.messages.received}: messages delivered to the application;
 *   <li>{@code partita.client.sends.failed}: sends that failed or the node refused.
 * </ul>
 *
 * The counters read the client's own counts when the registry asks; nothing is counted twice.
 */
public class PartitaClientMetrics implements MeterBinder {
    private final ClientStatistics statistics;
    private final List<Tag> tags;

    public PartitaClientMetrics(PartitaConnectionFactory factory) {
        this.statistics = factory.getStatistics();
        this.tags = List.of(Tag.of("url", PartitaConnectionUrl.nodes(factory.getUrl())));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("partita.client.connections.open", statistics, s -> s.connectionsOpen())
                .description("Connections of the Partita client open now")
                .baseUnit("connections")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        counter(
                registry,
                "partita.client.connections.opened",
                "Connections the Partita client opened",
                "connections",
                ClientStatistics::connectionsOpened);
        counter(
                registry,
                "partita.client.failovers",
                "Times a connection of the Partita client lost its node and went on with another",
                "failovers",
                ClientStatistics::failovers);
        counter(
                registry,
                "partita.client.messages.sent",
                "Messages the Partita client sent",
                "messages",
                ClientStatistics::messagesSent);
        counter(
                registry,
                "partita.client.messages.received",
                "Messages the Partita client delivered to the application",
                "messages",
                ClientStatistics::messagesReceived);
        counter(
                registry,
                "partita.client.sends.failed",
                "Sends of the Partita client that failed or the node refused",
                "sends",
                ClientStatistics::sendsFailed);
    }

    private void counter(
            MeterRegistry registry,
            String name,
            String description,
            String unit,
            ToDoubleFunction<ClientStatistics> count) {
        FunctionCounter.builder(name, statistics, count)
                .description(description)
                .baseUnit(unit)
                .tags(tags)
                .register(registry);
    }
}
