package org.partita.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.client.ConnectionOptions;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.transport.ClientTls;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code spring.partita.ssl.*}: the client's TLS URL options, with the stores' passwords kept out of
 * the URL the factory shows, and the stores read when the application starts. No node: the TLS
 * connection itself is spring-boot-it's (TlsTest).
 */
class PartitaSslPropertiesTest {
    @TempDir
    static Path dir;

    static Path keyStore;
    static Path trustStore;

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PartitaAutoConfiguration.class));

    @BeforeAll
    static void stores() throws Exception {
        keyStore = dir.resolve("client.p12");
        trustStore = dir.resolve("trust.p12");
        Stores.keyPair(keyStore, "key-secret");
        Stores.trustStoreOf(keyStore, "key-secret", trustStore, "trust-secret");
    }

    private static PartitaConnectionFactory partita(org.springframework.context.ApplicationContext context) {
        return context.getBean(PartitaConnectionFactoryHolder.class).getConnectionFactory();
    }

    @Test
    void theSslPropertiesBecomeTheClientsTlsOptionsWithThePasswordsOutOfTheUrl() {
        runner.withPropertyValues(
                        "spring.partita.url=ssl://node.example:61701",
                        "spring.partita.ssl.trust-store=" + trustStore,
                        "spring.partita.ssl.trust-store-password=trust-secret",
                        "spring.partita.ssl.key-store=" + keyStore,
                        "spring.partita.ssl.key-store-password=key-secret",
                        "spring.partita.ssl.verify-host=false")
                .run(context -> {
                    PartitaConnectionFactory cf = partita(context);
                    assertThat(cf.getUrl())
                            .startsWith("ssl://node.example:61701?trustStore=")
                            .contains("&keyStore=", "&verifyHost=false")
                            .doesNotContain("secret");
                    assertThat(cf.toString()).doesNotContain("secret");
                    PartitaCredentialsConnectionFactory withPasswords = (PartitaCredentialsConnectionFactory) cf;
                    assertThat(withPasswords.getUser()).isNull();
                    ClientTls tls = ConnectionOptions.parse(withPasswords.connectionUrl())
                            .tls();
                    assertThat(tls)
                            .isEqualTo(new ClientTls(
                                    trustStore.toString(), "trust-secret", keyStore.toString(), "key-secret", false));
                    // the ConnectionFactory bean wraps the very same factory
                    assertThat(context.getBean(ConnectionFactory.class))
                            .isInstanceOfSatisfying(
                                    org.springframework.jms.connection.CachingConnectionFactory.class,
                                    caching -> assertThat(caching.getTargetConnectionFactory())
                                            .isSameAs(cf));
                });
    }

    @Test
    void fileLocationsAreResolvedToPaths() {
        runner.withPropertyValues(
                        "spring.partita.url=ssl://node:61701",
                        "spring.partita.ssl.trust-store=" + trustStore.toUri(),
                        "spring.partita.ssl.trust-store-password=trust-secret")
                .run(context -> assertThat(
                                ConnectionOptions.parse(partita(context).getUrl())
                                        .tls()
                                        .trustStore())
                        .isEqualTo(trustStore.toAbsolutePath().toString()));
    }

    @Test
    void onlyTheVerifyHostSettingIsAPlainPartitaFactory() {
        runner.withPropertyValues("spring.partita.url=ssl://node:61701", "spring.partita.ssl.verify-host=false")
                .run(context -> {
                    assertThat(partita(context)).isExactlyInstanceOf(PartitaConnectionFactory.class);
                    assertThat(partita(context).getUrl()).isEqualTo("ssl://node:61701?verifyHost=false");
                });
    }

    @Test
    void sslPropertiesWithoutAnSslNodeStopTheApplication() {
        runner.withPropertyValues("spring.partita.url=tcp://node:61700", "spring.partita.ssl.trust-store=" + trustStore)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessage("spring.partita.ssl.* is set but spring.partita.url (tcp://node:61700) has no"
                                + " ssl:// node: TLS is spoken to the nodes named ssl://host:port"));
        // a failover list with one ssl:// node is fine
        runner.withPropertyValues(
                        "spring.partita.url=tcp://a:61700,ssl://b:61701",
                        "spring.partita.ssl.trust-store=" + trustStore,
                        "spring.partita.ssl.trust-store-password=trust-secret")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aWrongStorePasswordStopsTheApplicationWithoutShowingIt() {
        runner.withPropertyValues(
                        "spring.partita.url=ssl://node:61701",
                        "spring.partita.ssl.trust-store=" + trustStore,
                        "spring.partita.ssl.trust-store-password=wrong-guess")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("option trustStore: cannot read " + trustStore)
                        .message()
                        .doesNotContain("wrong-guess"));
        runner.withPropertyValues(
                        "spring.partita.url=ssl://node:61701",
                        "spring.partita.ssl.trust-store=" + dir.resolve("missing.p12"))
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContaining(
                                "spring.partita: TLS of the ssl:// nodes: option trustStore: cannot read"));
    }

    @Test
    void aStoreSetByAPropertyAndAnOptionStopsTheApplicationNamingBoth() {
        runner.withPropertyValues(
                        "spring.partita.url=ssl://node:61701",
                        "spring.partita.ssl.trust-store=" + trustStore,
                        "spring.partita.options.trustStore=/elsewhere.p12")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessage("spring.partita.options.trustStore and spring.partita.ssl.trust-store both set"
                                + " the connection URL option trustStore; set it in one place"));
    }

    @Test
    void aPasswordGivenAsAnOptionStaysOutOfTheUrlToo() {
        runner.withPropertyValues(
                        "spring.partita.url=ssl://node:61701",
                        "spring.partita.ssl.trust-store=" + trustStore,
                        "spring.partita.options.trustStorePassword=trust-secret",
                        "spring.partita.options.prefech=1")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("has unknown options [prefech]")
                        .hasMessageContaining("trustStorePassword=******")
                        .message()
                        .doesNotContain("trust-secret"));
    }
}
