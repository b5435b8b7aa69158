package org.partita.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.client.PartitaConnectionFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code spring.partita.ssl.bundle}: a Boot SSL bundle's trust and key managers given to the client's
 * factory instead of store files, and the mistakes that stop the application. No node: the TLS
 * connection itself is spring-boot-it's (SslBundleTest).
 */
class PartitaSslBundleTest {
    @TempDir
    static Path dir;

    static Path keyStore;
    static Path trustStore;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, PartitaAutoConfiguration.class));

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

    private ApplicationContextRunner withTrustBundle() {
        return runner.withPropertyValues(
                "spring.ssl.bundle.jks.partita.truststore.location=" + trustStore.toUri(),
                "spring.ssl.bundle.jks.partita.truststore.password=trust-secret");
    }

    @Test
    void theBundlesTrustAndKeyManagersGoToTheFactoryAndNothingToItsUrl() {
        withTrustBundle()
                .withPropertyValues(
                        "spring.partita.url=ssl://node.example:61701",
                        "spring.partita.ssl.bundle=partita",
                        "spring.ssl.bundle.jks.partita.keystore.location=" + keyStore.toUri(),
                        "spring.ssl.bundle.jks.partita.keystore.password=key-secret")
                .run(context -> {
                    PartitaConnectionFactory cf = partita(context);
                    assertThat(cf.getUrl()).isEqualTo("ssl://node.example:61701");
                    assertThat(cf).isExactlyInstanceOf(PartitaConnectionFactory.class);
                    assertThat(cf.getTrustManagerFactory()).isNotNull();
                    assertThat(cf.getKeyManagerFactory()).isNotNull();
                });
    }

    @Test
    void aBundleOfTrustAloneGivesNoKeyManagers() {
        withTrustBundle()
                .withPropertyValues("spring.partita.url=ssl://node:61701", "spring.partita.ssl.bundle=partita")
                .run(context -> {
                    assertThat(partita(context).getTrustManagerFactory()).isNotNull();
                    assertThat(partita(context).getKeyManagerFactory()).isNull();
                });
    }

    @Test
    void anUnknownBundleStopsTheApplicationNamingIt() {
        withTrustBundle()
                .withPropertyValues("spring.partita.url=ssl://node:61701", "spring.partita.ssl.bundle=partitta")
                .run(
                        context -> assertThat(context)
                                .getFailure()
                                .hasMessageContaining(
                                        "spring.partita.ssl.bundle: SSL bundle name 'partitta' cannot be found;"
                                                + " define it as spring.ssl.bundle.jks.partitta.* or spring.ssl.bundle.pem.partitta.*"));
    }

    @Test
    void aBundleAndAStoreStopTheApplicationNamingBoth() {
        withTrustBundle()
                .withPropertyValues(
                        "spring.partita.url=ssl://node:61701",
                        "spring.partita.ssl.bundle=partita",
                        "spring.partita.ssl.trust-store=" + trustStore)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessage("spring.partita.ssl.bundle and spring.partita.ssl.trust-store both give the"
                                + " client TLS material (the URL option trustStore); take it from the bundle or from"
                                + " the stores, not both"));
        withTrustBundle()
                .withPropertyValues(
                        "spring.partita.url=ssl://node:61701?keyStore=/etc/app/key.p12",
                        "spring.partita.ssl.bundle=partita")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("spring.partita.ssl.bundle and spring.partita.url both give"));
    }

    @Test
    void bundleOptionsTheClientWouldNotApplyStopTheApplication() {
        withTrustBundle()
                .withPropertyValues(
                        "spring.partita.url=ssl://node:61701",
                        "spring.partita.ssl.bundle=partita",
                        "spring.ssl.bundle.jks.partita.options.enabled-protocols=TLSv1.3")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("spring.partita.ssl.bundle=partita: the bundle sets options"));
    }

    @Test
    void aBundleWithoutAnSslNodeStopsTheApplication() {
        withTrustBundle()
                .withPropertyValues("spring.partita.url=tcp://node:61700", "spring.partita.ssl.bundle=partita")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageStartingWith("spring.partita.ssl.* is set but spring.partita.url"));
    }
}
