package org.partita.tck.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test that a provider is known to fail for a documented reason. The test is skipped for
 * that provider only, and reported as skipped with the reason (see {@link KnownDeviationCondition}
 * and the summary printed at the end of the run): never silently.
 *
 * <p>The reason must name the spec section the provider departs from.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Repeatable(KnownDeviations.class)
public @interface KnownDeviation {
    /** {@code partita} or {@code artemis}. */
    String provider();

    /** Why the provider fails, with the spec section it departs from. */
    String reason();
}
