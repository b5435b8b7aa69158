package org.partita.spring.boot;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** The {@code partita} health indicator under Spring Boot 3 ({@code org.springframework.boot.actuate.health}). */
public class PartitaBoot3HealthIndicator implements HealthIndicator {
    private final PartitaHealthCheck check;

    public PartitaBoot3HealthIndicator(PartitaHealthCheck check) {
        this.check = check;
    }

    @Override
    public Health health() {
        PartitaHealthCheck.Result r = check.check();
        return (r.up() ? Health.up() : Health.down()).withDetails(r.details()).build();
    }
}
