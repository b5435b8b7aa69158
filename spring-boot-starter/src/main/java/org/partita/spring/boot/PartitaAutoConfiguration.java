package org.partita.spring.boot;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import org.messaginghub.pooled.jms.JmsPoolConnectionFactory;
import org.partita.jms.client.ConnectionOptions;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.transport.BrokerError;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jms.connection.CachingConnectionFactory;

/**
 * A Partita {@link ConnectionFactory} from the {@code spring.partita.*} properties, for the application
 * that defines none of its own; Boot's JMS auto-configuration then builds its {@code JmsTemplate} and
 * {@code @JmsListener} containers on it. As Boot does for Artemis, the factory is wrapped in Spring's
 * {@link CachingConnectionFactory} ({@code spring.jms.cache.*}, on by default), or in a pooled-jms
 * {@code JmsPoolConnectionFactory} when {@code spring.partita.pool.enabled=true}.
 *
 * <p>Boot's JMS classes are named by class name, once for Boot 3 and once for Boot 4 (which moved them),
 * so the one jar serves both. It runs before the Artemis and ActiveMQ auto-configurations too: with the
 * Partita starter on the class path, Partita is the JMS provider the application meant.
 */
@AutoConfiguration(
        beforeName = {
            "org.springframework.boot.autoconfigure.jms.JmsAutoConfiguration",
            "org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration",
            "org.springframework.boot.autoconfigure.jms.artemis.ArtemisAutoConfiguration",
            "org.springframework.boot.artemis.autoconfigure.ArtemisAutoConfiguration",
            "org.springframework.boot.autoconfigure.jms.activemq.ActiveMQAutoConfiguration",
            "org.springframework.boot.activemq.autoconfigure.ActiveMQAutoConfiguration"
        },
        afterName = {
            "org.springframework.boot.autoconfigure.jms.JndiConnectionFactoryAutoConfiguration",
            "org.springframework.boot.jms.autoconfigure.JndiConnectionFactoryAutoConfiguration"
        })
@ConditionalOnClass({ConnectionFactory.class, PartitaConnectionFactory.class})
@ConditionalOnMissingBean(ConnectionFactory.class)
@EnableConfigurationProperties(PartitaProperties.class)
public class PartitaAutoConfiguration {

    /**
     * The client's factory for the properties. The URL is checked here, so a wrong option stops the
     * application at start with the client's message instead of failing its first send; with an
     * {@code ssl://} node, so are the key and trust stores (read, with their passwords), or the SSL
     * bundle named by {@code spring.partita.ssl.bundle} is found in {@code bundles} and applied.
     */
    static PartitaConnectionFactory partitaConnectionFactory(PartitaProperties properties, SslBundles bundles) {
        PartitaConnectionUrl.Parts url = PartitaConnectionUrl.parts(properties);
        ConnectionOptions options;
        try {
            ConnectionOptions.parse(url.redactedUrl()); // its message shows no password
            options = ConnectionOptions.parse(url.connectionUrl());
        } catch (JMSException e) {
            throw new IllegalStateException("spring.partita: " + e.getMessage(), e);
        }
        if (properties.getPassword() != null && properties.getUser() == null) {
            throw new IllegalStateException("spring.partita.password is set but spring.partita.user is not");
        }
        if (url.hasTlsNode() && properties.getSsl().getBundle() == null) {
            try {
                options.tls().context();
            } catch (BrokerError e) {
                throw new IllegalStateException("spring.partita: TLS of the ssl:// nodes: " + e.getMessage(), e);
            }
        }
        PartitaConnectionFactory factory =
                properties.getUser() != null || !url.secretOptions().isEmpty()
                        ? new PartitaCredentialsConnectionFactory(
                                url.url(), properties.getUser(), properties.getPassword(), url.secretOptions())
                        : new PartitaConnectionFactory(url.url());
        if (properties.getSsl().getBundle() != null) {
            PartitaSslBundle.apply(properties.getSsl().getBundle(), bundles, factory);
        }
        return factory;
    }

    /** The client's factory, for the connection factory bean that wraps it and for health and metrics. */
    @Bean
    PartitaConnectionFactoryHolder partitaConnectionFactoryHolder(
            PartitaProperties properties, ObjectProvider<SslBundles> sslBundles) {
        return new PartitaConnectionFactoryHolder(partitaConnectionFactory(properties, sslBundles.getIfAvailable()));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(
            prefix = "spring.partita.pool",
            name = "enabled",
            havingValue = "false",
            matchIfMissing = true)
    static class SimpleConnectionFactoryConfiguration {

        @Bean(name = "jmsConnectionFactory")
        @ConditionalOnProperty(prefix = "spring.jms.cache", name = "enabled", havingValue = "false")
        PartitaConnectionFactory jmsConnectionFactory(PartitaConnectionFactoryHolder partita) {
            return partita.getConnectionFactory();
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnProperty(
                prefix = "spring.jms.cache",
                name = "enabled",
                havingValue = "true",
                matchIfMissing = true)
        static class CachingConnectionFactoryConfiguration {

            /** Sessions (and producers) cached over one shared connection; the settings are Boot's spring.jms.cache.*. */
            @Bean(name = {"jmsConnectionFactory", "cachingJmsConnectionFactory"})
            CachingConnectionFactory cachingJmsConnectionFactory(
                    PartitaConnectionFactoryHolder partita, Environment environment) {
                Binder binder = Binder.get(environment);
                CachingConnectionFactory factory = new CachingConnectionFactory(partita.getConnectionFactory());
                factory.setCacheConsumers(
                        binder.bind("spring.jms.cache.consumers", Boolean.class).orElse(false));
                factory.setCacheProducers(
                        binder.bind("spring.jms.cache.producers", Boolean.class).orElse(true));
                factory.setSessionCacheSize(binder.bind("spring.jms.cache.session-cache-size", Integer.class)
                        .orElse(1));
                return factory;
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "spring.partita.pool", name = "enabled", havingValue = "true")
    static class PooledConnectionFactoryConfiguration {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(
                name = {"org.messaginghub.pooled.jms.JmsPoolConnectionFactory", "org.apache.commons.pool2.PooledObject"
                })
        static class PoolPresent {

            @Bean(name = "jmsConnectionFactory", destroyMethod = "stop")
            JmsPoolConnectionFactory jmsConnectionFactory(
                    PartitaProperties properties, PartitaConnectionFactoryHolder partita) {
                PartitaProperties.Pool pool = properties.getPool();
                JmsPoolConnectionFactory factory = new JmsPoolConnectionFactory();
                factory.setConnectionFactory(partita.getConnectionFactory());
                factory.setMaxConnections(pool.getMaxConnections());
                factory.setMaxSessionsPerConnection(pool.getMaxSessionsPerConnection());
                factory.setConnectionIdleTimeout((int) pool.getIdleTimeout().toMillis());
                factory.setBlockIfSessionPoolIsFull(pool.isBlockIfFull());
                if (pool.getBlockIfFullTimeout() != null) {
                    factory.setBlockIfSessionPoolIsFullTimeout(
                            pool.getBlockIfFullTimeout().toMillis());
                }
                if (pool.getTimeBetweenExpirationCheck() != null) {
                    factory.setConnectionCheckInterval(
                            pool.getTimeBetweenExpirationCheck().toMillis());
                }
                factory.setUseAnonymousProducers(pool.isUseAnonymousProducers());
                return factory;
            }
        }

        /** Asked for a pool without pooled-jms: say so at start rather than leave the application with no factory. */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnMissingClass("org.messaginghub.pooled.jms.JmsPoolConnectionFactory")
        static class PoolMissing {

            @Bean(name = "jmsConnectionFactory")
            ConnectionFactory jmsConnectionFactory() {
                throw new IllegalStateException("spring.partita.pool.enabled=true needs pooled-jms on the class path:"
                        + " add the dependency org.messaginghub:pooled-jms, or leave the pool off");
            }
        }
    }
}
