package org.partita.spring.boot;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code partita} health indicator under Spring Boot 4, which moved health indicators to
 * {@code org.springframework.boot.health.contributor} (module spring-boot-health).
 */
public class PartitaBoot4HealthIndicator implements HealthIndicator {
    private final PartitaHealthCheck check;

    public PartitaBoot4HealthIndicator(PartitaHealthCheck check) {
        this.check = check;
    }

    @Override
    public Health health() {
        PartitaHealthCheck.Result r = check.check();
        return (r.up() ? Health.up() : Health.down()).withDetails(r.details()).build();
    }
}
