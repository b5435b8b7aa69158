package org.partita.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.messaginghub.pooled.jms.JmsPoolConnectionFactory;
import org.partita.jms.client.PartitaConnectionFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jms.JmsAutoConfiguration;
import org.springframework.boot.autoconfigure.jms.JndiConnectionFactoryAutoConfiguration;
import org.springframework.boot.autoconfigure.jms.activemq.ActiveMQAutoConfiguration;
import org.springframework.boot.autoconfigure.jms.artemis.ArtemisAutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.config.DefaultJmsListenerContainerFactory;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;

/** What the auto-configuration makes of the properties, without a node: nothing here connects. */
class PartitaAutoConfigurationTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PartitaAutoConfiguration.class));

    private static PartitaConnectionFactory partita(ConnectionFactory cf) {
        if (cf instanceof CachingConnectionFactory caching) {
            return (PartitaConnectionFactory) caching.getTargetConnectionFactory();
        }
        if (cf instanceof JmsPoolConnectionFactory pool) {
            return (PartitaConnectionFactory) pool.getConnectionFactory();
        }
        return (PartitaConnectionFactory) cf;
    }

    @Test
    void withNoPropertiesACachingFactoryOverTheDefaultNode() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(ConnectionFactory.class);
            assertThat(context).hasBean("jmsConnectionFactory").hasBean("cachingJmsConnectionFactory");
            CachingConnectionFactory cf = context.getBean(CachingConnectionFactory.class);
            assertThat(partita(cf).getUrl()).isEqualTo("tcp://127.0.0.1:61700");
            assertThat(partita(cf)).isNotInstanceOf(PartitaCredentialsConnectionFactory.class);
            // Boot's defaults for spring.jms.cache.*
            assertThat(cf.getSessionCacheSize()).isEqualTo(1);
            assertThat(cf.isCacheProducers()).isTrue();
            assertThat(cf.isCacheConsumers()).isFalse();
        });
    }

    @Test
    void typedPropertiesAndOptionsBecomeUrlOptions() {
        runner.withPropertyValues(
                        "spring.partita.url=tcp://a:61700,tcp://b:61701",
                        "spring.partita.client-id=orders app",
                        "spring.partita.prefetch=0",
                        "spring.partita.prefetch-bytes=2MB",
                        "spring.partita.connect-timeout=2s",
                        "spring.partita.greeting-timeout=1500ms",
                        "spring.partita.failover-timeout=1m",
                        "spring.partita.heartbeat=500ms",
                        "spring.partita.options.maxFrameSize=1048576",
                        "spring.partita.options.verifyHost=false")
                .run(
                        context -> assertThat(partita(context.getBean(ConnectionFactory.class))
                                        .getUrl())
                                .isEqualTo(
                                        "tcp://a:61700,tcp://b:61701?clientID=orders+app&prefetch=0&prefetchBytes=2097152&connectTimeout=2000"
                                                + "&greetingTimeout=1500&failoverTimeout=60000&heartbeat=500&maxFrameSize=1048576&verifyHost=false"));
    }

    @Test
    void optionsAlreadyInTheUrlAreKept() {
        runner.withPropertyValues("spring.partita.url=ssl://node:61701?verifyHost=false", "spring.partita.prefetch=10")
                .run(context -> assertThat(partita(context.getBean(ConnectionFactory.class))
                                .getUrl())
                        .isEqualTo("ssl://node:61701?verifyHost=false&prefetch=10"));
    }

    @Test
    void anOptionSetTwiceStopsTheApplicationNamingBoth() {
        runner.withPropertyValues("spring.partita.url=tcp://node:61700?prefetch=5", "spring.partita.prefetch=10")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessage("spring.partita.prefetch and spring.partita.url both set the connection URL"
                                + " option prefetch; set it in one place"));
        runner.withPropertyValues("spring.partita.options.clientID=a", "spring.partita.client-id=b")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("spring.partita.options.clientID and spring.partita.client-id"));
    }

    @Test
    void anUnknownOptionStopsTheApplicationWithTheClientsMessage() {
        runner.withPropertyValues("spring.partita.options.prefech=10")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageStartingWith("connection URL 'tcp://127.0.0.1:61700?prefech=10' has unknown options"
                                + " [prefech]"));
        runner.withPropertyValues("spring.partita.url=http://node:61700")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("must look like tcp://host:port"));
    }

    @Test
    void credentialsGoToCreateConnectionNotIntoTheUrl() {
        runner.withPropertyValues("spring.partita.user=alice", "spring.partita.password=s3cret&x")
                .run(context -> {
                    PartitaConnectionFactory cf = partita(context.getBean(ConnectionFactory.class));
                    assertThat(cf).isInstanceOf(PartitaCredentialsConnectionFactory.class);
                    assertThat(((PartitaCredentialsConnectionFactory) cf).getUser())
                            .isEqualTo("alice");
                    assertThat(cf.getUrl()).isEqualTo("tcp://127.0.0.1:61700");
                    assertThat(cf.toString()).doesNotContain("s3cret");
                });
        runner.withPropertyValues("spring.partita.url=tcp://node:61700?user=bob", "spring.partita.user=alice")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("spring.partita.user and spring.partita.url"));
        runner.withPropertyValues("spring.partita.password=p")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessage("spring.partita.password is set but spring.partita.user is not"));
    }

    @Test
    void theCredentialsFactoryPassesItsCredentialsUnlessTheCallerGivesOthers() throws Exception {
        List<String> calls = new ArrayList<>();
        PartitaCredentialsConnectionFactory cf =
                new PartitaCredentialsConnectionFactory("tcp://node:1", "alice", "pw") {
                    private static final long serialVersionUID = 1L;

                    @Override
                    public Connection createConnection(String user, String password) {
                        calls.add("connection " + user + "/" + password);
                        return null;
                    }

                    @Override
                    public JMSContext createContext(String user, String password, int sessionMode) {
                        calls.add("context " + user + "/" + password + " mode " + sessionMode);
                        return null;
                    }

                    @Override
                    public JMSContext createContext(String user, String password) {
                        calls.add("context " + user + "/" + password);
                        return null;
                    }
                };
        cf.createConnection();
        cf.createConnection("bob", "other");
        cf.createContext();
        cf.createContext(JMSContext.CLIENT_ACKNOWLEDGE);
        assertThat(calls)
                .containsExactly(
                        "connection alice/pw",
                        "connection bob/other",
                        "context alice/pw",
                        "context alice/pw mode " + JMSContext.CLIENT_ACKNOWLEDGE);
    }

    @Test
    void springJmsCacheSettingsApply() {
        runner.withPropertyValues(
                        "spring.jms.cache.session-cache-size=5",
                        "spring.jms.cache.consumers=true",
                        "spring.jms.cache.producers=false")
                .run(context -> {
                    CachingConnectionFactory cf = context.getBean(CachingConnectionFactory.class);
                    assertThat(cf.getSessionCacheSize()).isEqualTo(5);
                    assertThat(cf.isCacheConsumers()).isTrue();
                    assertThat(cf.isCacheProducers()).isFalse();
                });
    }

    @Test
    void withCachingOffThePlainClientFactory() {
        runner.withPropertyValues("spring.jms.cache.enabled=false").run(context -> {
            assertThat(context).hasSingleBean(ConnectionFactory.class).hasBean("jmsConnectionFactory");
            assertThat(context.getBean(ConnectionFactory.class)).isExactlyInstanceOf(PartitaConnectionFactory.class);
        });
    }

    @Test
    void withThePoolOnAPooledJmsFactory() {
        runner.withPropertyValues(
                        "spring.partita.pool.enabled=true",
                        "spring.partita.pool.max-connections=3",
                        "spring.partita.pool.max-sessions-per-connection=20",
                        "spring.partita.pool.idle-timeout=5s",
                        "spring.partita.pool.block-if-full=false",
                        "spring.partita.pool.block-if-full-timeout=2s",
                        "spring.partita.pool.time-between-expiration-check=1s",
                        "spring.partita.pool.use-anonymous-producers=false",
                        "spring.partita.url=tcp://node:61700")
                .run(context -> {
                    assertThat(context).hasSingleBean(ConnectionFactory.class);
                    assertThat(context).doesNotHaveBean(CachingConnectionFactory.class);
                    JmsPoolConnectionFactory pool = context.getBean(JmsPoolConnectionFactory.class);
                    assertThat(partita(pool).getUrl()).isEqualTo("tcp://node:61700");
                    assertThat(pool.getMaxConnections()).isEqualTo(3);
                    assertThat(pool.getMaxSessionsPerConnection()).isEqualTo(20);
                    assertThat(pool.getConnectionIdleTimeout()).isEqualTo(5000);
                    assertThat(pool.isBlockIfSessionPoolIsFull()).isFalse();
                    assertThat(pool.getBlockIfSessionPoolIsFullTimeout()).isEqualTo(2000);
                    assertThat(pool.getConnectionCheckInterval()).isEqualTo(1000);
                    assertThat(pool.isUseAnonymousProducers()).isFalse();
                });
    }

    @Test
    void thePoolsDefaultsAreThoseOfSpringArtemisPool() {
        runner.withPropertyValues("spring.partita.pool.enabled=true").run(context -> {
            JmsPoolConnectionFactory pool = context.getBean(JmsPoolConnectionFactory.class);
            assertThat(pool.getMaxConnections()).isEqualTo(1);
            assertThat(pool.getMaxSessionsPerConnection()).isEqualTo(500);
            assertThat(pool.getConnectionIdleTimeout()).isEqualTo(30_000);
            assertThat(pool.isBlockIfSessionPoolIsFull()).isTrue();
            assertThat(pool.getBlockIfSessionPoolIsFullTimeout()).isEqualTo(-1);
            assertThat(pool.getConnectionCheckInterval()).isEqualTo(-1);
            assertThat(pool.isUseAnonymousProducers()).isTrue();
        });
    }

    @Test
    void aPoolWithoutPooledJmsStopsTheApplicationSayingWhatToAdd() {
        runner.withClassLoader(new FilteredClassLoader(JmsPoolConnectionFactory.class))
                .withPropertyValues("spring.partita.pool.enabled=true")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("add the dependency org.messaginghub:pooled-jms"));
        runner.withClassLoader(new FilteredClassLoader(JmsPoolConnectionFactory.class))
                .run(context -> assertThat(context).hasSingleBean(CachingConnectionFactory.class));
    }

    @Test
    void backsOffWhenTheApplicationHasAConnectionFactory() {
        runner.withUserConfiguration(OwnFactory.class)
                .withPropertyValues("spring.partita.url=tcp://ignored:1")
                .run(context -> {
                    assertThat(context).hasSingleBean(ConnectionFactory.class);
                    assertThat(context.getBean(ConnectionFactory.class)).isSameAs(OwnFactory.FACTORY);
                    assertThat(context).doesNotHaveBean(PartitaProperties.class);
                });
    }

    @Test
    void backsOffWithoutTheClientOnTheClassPath() {
        runner.withClassLoader(new FilteredClassLoader(PartitaConnectionFactory.class))
                .run(context -> assertThat(context).doesNotHaveBean(ConnectionFactory.class));
    }

    @Test
    void bootsJmsTemplateAndListenerContainersUseIt() {
        // listed after Boot's JMS auto-configuration: the declared order puts Partita's first anyway
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(JmsAutoConfiguration.class, PartitaAutoConfiguration.class))
                .withPropertyValues("spring.partita.url=tcp://node:61700")
                .run(context -> {
                    ConnectionFactory cf = context.getBean(ConnectionFactory.class);
                    assertThat(partita(cf).getUrl()).isEqualTo("tcp://node:61700");
                    assertThat(context.getBean(JmsTemplate.class).getConnectionFactory())
                            .isSameAs(cf);
                    assertThat(context).hasSingleBean(DefaultJmsListenerContainerFactory.class);
                });
    }

    @Test
    void runsAfterBootsJndiFactoryAndBeforeBootsJmsArtemisAndActiveMqAutoConfigurations() {
        // AutoConfigurations sorts by name first, where org.partita comes before org.springframework
        // anyway: the declared order is what holds in an application, so it is checked here for Boot 3's
        // classes (spring-boot4-it runs it under Boot 4's)
        AutoConfiguration order = PartitaAutoConfiguration.class.getAnnotation(AutoConfiguration.class);
        assertThat(order.beforeName())
                .contains(
                        JmsAutoConfiguration.class.getName(),
                        ArtemisAutoConfiguration.class.getName(),
                        ActiveMQAutoConfiguration.class.getName());
        assertThat(order.afterName()).contains(JndiConnectionFactoryAutoConfiguration.class.getName());
    }

    @Test
    void isRegisteredAsAnAutoConfiguration() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
                .contains(PartitaAutoConfiguration.class.getName());
    }

    @Test
    void everyPropertyIsInTheConfigurationMetadata() throws IOException {
        String metadata = null;
        Enumeration<URL> all = getClass().getClassLoader().getResources("META-INF/spring-configuration-metadata.json");
        while (all.hasMoreElements()) {
            try (InputStream in = all.nextElement().openStream()) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                if (text.contains("\"spring.partita\"")) {
                    metadata = text;
                }
            }
        }
        assertThat(metadata)
                .as("the starter's spring-configuration-metadata.json")
                .isNotNull();
        for (String name : List.of(
                "url",
                "user",
                "password",
                "client-id",
                "prefetch",
                "connect-timeout",
                "greeting-timeout",
                "failover-timeout",
                "heartbeat",
                "options",
                "ssl.bundle",
                "ssl.trust-store",
                "ssl.trust-store-password",
                "ssl.key-store",
                "ssl.key-store-password",
                "ssl.verify-host",
                "health.timeout",
                "pool.enabled",
                "pool.max-connections",
                "pool.max-sessions-per-connection",
                "pool.idle-timeout",
                "pool.block-if-full",
                "pool.block-if-full-timeout",
                "pool.time-between-expiration-check",
                "pool.use-anonymous-producers")) {
            assertThat(metadata).contains("\"name\": \"spring.partita." + name + "\"");
        }
        assertThat(metadata).contains("\"defaultValue\": \"tcp:\\/\\/127.0.0.1:61700\"");
        assertThat(metadata).contains("\"name\": \"management.health.partita.enabled\"");
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFactory {
        static final ConnectionFactory FACTORY = new PartitaConnectionFactory("tcp://mine:61700");

        @Bean
        ConnectionFactory myConnectionFactory() {
            return FACTORY;
        }
    }
}
