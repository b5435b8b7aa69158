package org.partita.tck.support;

import java.lang.reflect.AnnotatedElement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/** Skips, for the provider under test, tests carrying a matching {@link KnownDeviation}. */
public final class KnownDeviationCondition implements ExecutionCondition {

    /** Prefix of the skip reason, recognised by the summary listener. */
    public static final String PREFIX = "known deviation of ";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<AnnotatedElement> element = context.getElement();
        if (element.isEmpty()) {
            return ConditionEvaluationResult.enabled("no element");
        }
        String provider = ProviderExtension.provider();
        List<KnownDeviation> deviations =
                AnnotationSupport.findRepeatableAnnotations(element.get(), KnownDeviation.class);
        for (KnownDeviation d : deviations) {
            if (d.provider().equalsIgnoreCase(provider)) {
                return ConditionEvaluationResult.disabled(PREFIX + provider + ": " + d.reason());
            }
        }
        return ConditionEvaluationResult.enabled("no known deviation for " + provider);
    }
}
