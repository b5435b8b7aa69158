package org.partita.spring.boot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * What Boot's {@code @ConditionalOnEnabledHealthIndicator("partita")} says, for Boot 3 and 4 both (Boot 4
 * moved that annotation): {@code management.health.partita.enabled}, else
 * {@code management.health.defaults.enabled}, else on.
 */
class OnPartitaHealthEnabledCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String own = context.getEnvironment().getProperty("management.health.partita.enabled");
        if (own != null) {
            return new ConditionOutcome(
                    Boolean.parseBoolean(own.trim()), "management.health.partita.enabled is " + own);
        }
        String defaults = context.getEnvironment().getProperty("management.health.defaults.enabled", "true");
        return new ConditionOutcome(
                Boolean.parseBoolean(defaults.trim()), "management.health.defaults.enabled is " + defaults);
    }
}
