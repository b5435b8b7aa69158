package org.partita.broker.config;

/**
 * What the node's meters (Prometheus and JMX) may grow to. In the config file each component is
 * {@code metrics.<name> = value}.
 *
 * @param consumerLabels the most consumers that get meters of their own (labelled {@code consumer}); each
 *                       one is a handful of series, and clients decide how many consumers there are, so
 *                       past this number further consumers get none (counted in
 *                       {@code partita_consumers_unlabelled}); 0 gives no consumer meters at all
 */
public record MetricsSettings(int consumerLabels) {
    public static final String PREFIX = "metrics.";
    public static final String NAMES = "metrics.consumerLabels";
    public static final int DEFAULT_CONSUMER_LABELS = 500;

    public MetricsSettings {
        if (consumerLabels < 0) {
            throw new IllegalArgumentException("metrics.consumerLabels must not be negative: " + consumerLabels);
        }
    }

    public static MetricsSettings defaults() {
        return new MetricsSettings(DEFAULT_CONSUMER_LABELS);
    }

    /** One {@code metrics.<name> = value} line of the config file; errors name {@code where}. */
    MetricsSettings withField(String field, String value, String where) {
        String name = field.substring(PREFIX.length());
        return switch (name) {
            case "consumerLabels" -> new MetricsSettings(NodeConfigFile.integer(value, field, where, 0, 1_000_000));
            default -> throw new ConfigException(where + ": unknown field '" + field + "'; known: " + NAMES);
        };
    }
}
