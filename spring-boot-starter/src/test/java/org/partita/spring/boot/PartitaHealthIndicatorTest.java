package org.partita.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.ConnectionFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.jms.client.PartitaConnectionFactory;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code partita} health indicator under Boot 3, without a node: DOWN when nothing listens, and
 * when it is there at all. UP against a node is spring-boot-it's (HealthAndMetricsTest), and Boot 4's
 * indicator spring-boot4-it's.
 */
class PartitaHealthIndicatorTest {
    static int freePort;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    PartitaAutoConfiguration.class, PartitaHealthContributorAutoConfiguration.class));

    @BeforeAll
    static void aPortWhereNothingListens() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            freePort = s.getLocalPort();
        }
    }

    @Test
    void downWithTheClientsErrorCodeWhenNoNodeListens() {
        runner.withPropertyValues(
                        "spring.partita.url=tcp://127.0.0.1:" + freePort + "?prefetch=1",
                        "spring.partita.user=alice",
                        "spring.partita.password=s3cret")
                .run(context -> {
                    assertThat(context).hasBean("partitaHealthIndicator");
                    Health health = context.getBean("partitaHealthIndicator", HealthIndicator.class)
                            .health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    Map<String, Object> details = health.getDetails();
                    assertThat(details)
                            .containsEntry("url", "tcp://127.0.0.1:" + freePort)
                            .containsEntry("errorCode", PartitaErrorCodes.NODE_UNREACHABLE);
                    assertThat((String) details.get("error"))
                            .startsWith("jakarta.jms.JMSException: ")
                            .contains("127.0.0.1:" + freePort);
                    assertThat(details.toString()).doesNotContain("s3cret");
                });
    }

    @Test
    void theCheckConnectsWithinTheHealthTimeoutAtMost() {
        assertThat(PartitaConnectionUrl.withConnectTimeoutAtMost("tcp://a:1?prefetch=1&connectTimeout=60000&x=y", 3000))
                .isEqualTo("tcp://a:1?prefetch=1&x=y&connectTimeout=3000");
        assertThat(PartitaConnectionUrl.withConnectTimeoutAtMost("tcp://a:1?connectTimeout=500", 3000))
                .isEqualTo("tcp://a:1?connectTimeout=500");
        assertThat(PartitaConnectionUrl.withConnectTimeoutAtMost("tcp://a:1?connectTimeout=0", 3000))
                .as("0 is no limit")
                .isEqualTo("tcp://a:1?connectTimeout=3000");
        assertThat(PartitaConnectionUrl.withConnectTimeoutAtMost("tcp://a:1,tcp://b:2", 3000))
                .isEqualTo("tcp://a:1,tcp://b:2?connectTimeout=3000");
    }

    @Test
    void theCheckKeepsTheCredentialsAndPasswordsOfTheStartersFactory() {
        PartitaCredentialsConnectionFactory cf = new PartitaCredentialsConnectionFactory(
                "ssl://a:1?trustStore=/t.p12", "alice", "pw", Map.of("trustStorePassword", "tp"));
        PartitaCredentialsConnectionFactory probe =
                cf.withUrl(PartitaConnectionUrl.withConnectTimeoutAtMost(cf.getUrl(), 2000));
        assertThat(probe.getUser()).isEqualTo("alice");
        assertThat(probe.connectionUrl())
                .isEqualTo("ssl://a:1?trustStore=/t.p12&connectTimeout=2000&trustStorePassword=tp");
    }

    @Test
    void offWithManagementHealthPartitaEnabledFalseOrTheDefaultsOff() {
        runner.withPropertyValues("management.health.partita.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("partitaHealthIndicator"));
        runner.withPropertyValues("management.health.defaults.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("partitaHealthIndicator"));
        runner.withPropertyValues("management.health.defaults.enabled=false", "management.health.partita.enabled=true")
                .run(context -> assertThat(context).hasBean("partitaHealthIndicator"));
    }

    @Test
    void noneWithoutBootsActuatorOrWhenTheApplicationHasItsOwnFactory() {
        runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.health"))
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .hasSingleBean(ConnectionFactory.class)
                        .doesNotHaveBean("partitaHealthIndicator"));
        runner.withUserConfiguration(OwnFactory.class)
                .run(context -> assertThat(context).doesNotHaveBean("partitaHealthIndicator"));
    }

    @Test
    void theApplicationsOwnPartitaHealthIndicatorWins() {
        runner.withUserConfiguration(OwnIndicator.class)
                .run(context -> assertThat(context.getBean("partitaHealthIndicator", HealthIndicator.class)
                                .health())
                        .isEqualTo(Health.up().withDetail("mine", true).build()));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFactory {
        @Bean
        ConnectionFactory myConnectionFactory() {
            return new PartitaConnectionFactory("tcp://mine:61700");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnIndicator {
        @Bean
        HealthIndicator partitaHealthIndicator() {
            return () -> Health.up().withDetail("mine", true).build();
        }
    }
}
