package org.partita.spring.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code partita} health indicator (bean {@code partitaHealthIndicator}) of the connection factory
 * the starter made, when the application has Boot's actuator and
 * {@code management.health.partita.enabled} is not false. Boot 3 and Boot 4 name their
 * {@code HealthIndicator} differently, so there is one configuration for each, chosen by class name.
 */
@AutoConfiguration(after = PartitaAutoConfiguration.class)
@ConditionalOnBean(PartitaConnectionFactoryHolder.class)
@Conditional(OnPartitaHealthEnabledCondition.class)
public class PartitaHealthContributorAutoConfiguration {

    static PartitaHealthCheck check(PartitaConnectionFactoryHolder partita, PartitaProperties properties) {
        return new PartitaHealthCheck(
                partita.getConnectionFactory(), properties.getHealth().getTimeout());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    @ConditionalOnMissingClass("org.springframework.boot.health.contributor.HealthIndicator")
    static class Boot3 {

        @Bean
        @ConditionalOnMissingBean(name = "partitaHealthIndicator")
        PartitaBoot3HealthIndicator partitaHealthIndicator(
                PartitaConnectionFactoryHolder partita, PartitaProperties properties) {
            return new PartitaBoot3HealthIndicator(check(partita, properties));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Boot4 {

        @Bean
        @ConditionalOnMissingBean(name = "partitaHealthIndicator")
        PartitaBoot4HealthIndicator partitaHealthIndicator(
                PartitaConnectionFactoryHolder partita, PartitaProperties properties) {
            return new PartitaBoot4HealthIndicator(check(partita, properties));
        }
    }
}
