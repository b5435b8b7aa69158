package org.partita.spring.boot;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code partita.client.*} meters of the connection factory the starter made ({@link
 * PartitaClientMetrics}, bean {@code partitaClientMetrics}), when Micrometer is on the class path: Boot
 * binds every {@link MeterBinder} bean to its meter registries, under Boot 3 and 4 alike.
 */
@AutoConfiguration(after = PartitaAutoConfiguration.class)
@ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
@ConditionalOnBean(PartitaConnectionFactoryHolder.class)
public class PartitaMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "partitaClientMetrics")
    PartitaClientMetrics partitaClientMetrics(PartitaConnectionFactoryHolder partita) {
        return new PartitaClientMetrics(partita.getConnectionFactory());
    }
}
