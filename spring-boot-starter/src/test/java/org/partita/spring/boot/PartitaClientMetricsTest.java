package org.partita.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.jms.client.ClientStatistics;
import org.partita.jms.client.ClientStatisticsAccess;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code partita.client.*} meters of the starter's factory, bound to a SimpleMeterRegistry. */
class PartitaClientMetricsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(PartitaAutoConfiguration.class, PartitaMetricsAutoConfiguration.class));

    @Test
    void theMetersReadTheFactorysCountsTaggedWithItsNodes() {
        runner.withPropertyValues("spring.partita.url=tcp://a:61700,tcp://b:61700?prefetch=10")
                .run(context -> {
                    MeterRegistry registry = new SimpleMeterRegistry();
                    context.getBean("partitaClientMetrics", MeterBinder.class).bindTo(registry);
                    ClientStatistics stats = context.getBean(PartitaConnectionFactoryHolder.class)
                            .getConnectionFactory()
                            .getStatistics();
                    List<String> names = List.of(
                            "partita.client.connections.open",
                            "partita.client.connections.opened",
                            "partita.client.failovers",
                            "partita.client.messages.sent",
                            "partita.client.messages.received",
                            "partita.client.sends.failed");
                    for (String name : names) {
                        assertThat(registry.get(name)
                                        .tag("url", "tcp://a:61700,tcp://b:61700")
                                        .meter()
                                        .measure()
                                        .iterator()
                                        .next()
                                        .getValue())
                                .as(name)
                                .isZero();
                    }
                    ClientStatisticsAccess.connectionOpened(stats);
                    ClientStatisticsAccess.failedOver(stats);
                    for (int i = 0; i < 3; i++) {
                        ClientStatisticsAccess.sent(stats);
                    }
                    ClientStatisticsAccess.received(stats);
                    ClientStatisticsAccess.received(stats);
                    ClientStatisticsAccess.sendFailed(stats);
                    assertThat(registry.get("partita.client.connections.open")
                                    .gauge()
                                    .value())
                            .isEqualTo(1);
                    assertThat(registry.get("partita.client.connections.opened")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                    assertThat(registry.get("partita.client.failovers")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                    assertThat(registry.get("partita.client.messages.sent")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(3);
                    assertThat(registry.get("partita.client.messages.received")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(2);
                    assertThat(registry.get("partita.client.sends.failed")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                });
    }

    @Test
    void thePoolsFactoryIsTheOneCounted() {
        runner.withPropertyValues("spring.partita.pool.enabled=true").run(context -> {
            org.messaginghub.pooled.jms.JmsPoolConnectionFactory pool =
                    context.getBean(org.messaginghub.pooled.jms.JmsPoolConnectionFactory.class);
            assertThat(pool.getConnectionFactory())
                    .isSameAs(context.getBean(PartitaConnectionFactoryHolder.class)
                            .getConnectionFactory());
            assertThat(context).hasBean("partitaClientMetrics");
        });
    }

    @Test
    void noneWithoutMicrometerOrWhenTheStarterBacksOff() {
        runner.withClassLoader(new FilteredClassLoader(MeterBinder.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("partitaClientMetrics"));
        runner.withUserConfiguration(PartitaHealthIndicatorTest.OwnFactory.class)
                .run(context -> assertThat(context).doesNotHaveBean("partitaClientMetrics"));
    }
}
