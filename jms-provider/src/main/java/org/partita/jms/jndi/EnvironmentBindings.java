package org.partita.jms.jndi;

import jakarta.jms.JMSException;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import javax.naming.ConfigurationException;
import javax.naming.Context;
import org.partita.jms.client.ConnectionOptions;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.client.PartitaXAConnectionFactory;
import org.partita.jms.destination.PartitaQueue;
import org.partita.jms.destination.PartitaTopic;

/**
 * Turns a JNDI environment into the objects to bind, with the ActiveMQ Artemis / Qpid JMS conventions:
 * <ul>
 *   <li>{@code connectionFactory.<name>=<url>} (also spelled {@code connectionfactory.}) binds a
 *       {@link PartitaConnectionFactory}; an empty URL means the provider URL;</li>
 *   <li>{@code xaConnectionFactory.<name>=<url>} (also {@code xaconnectionfactory.}) binds a
 *       {@link PartitaXAConnectionFactory} the same way;</li>
 *   <li>{@code queue.<name>=<queue>} binds a {@link PartitaQueue}, {@code topic.<name>=<topic>} a
 *       {@link PartitaTopic};</li>
 *   <li>{@code ConnectionFactory} is bound to {@code java.naming.provider.url} (default
 *       {@value #DEFAULT_URL}) unless the environment binds that name itself.</li>
 * </ul>
 * Names are kept flat, exactly as written (dots and slashes included). Every URL is checked with
 * {@link ConnectionOptions#parse} here, so a bad one fails when the context is created.
 */
final class EnvironmentBindings {
    static final String DEFAULT_URL = "tcp://127.0.0.1:61700";
    static final String DEFAULT_FACTORY_NAME = "ConnectionFactory";

    private static final String[] FACTORY_PREFIXES = {"connectionFactory.", "connectionfactory."};
    private static final String[] XA_FACTORY_PREFIXES = {"xaConnectionFactory.", "xaconnectionfactory."};
    private static final String QUEUE_PREFIX = "queue.";
    private static final String TOPIC_PREFIX = "topic.";

    private EnvironmentBindings() {}

    /** The bindings, sorted by name, unmodifiable. */
    static Map<String, Object> read(Map<?, ?> env) throws ConfigurationException {
        String providerUrl = providerUrl(env);
        SortedMap<String, Object> bindings = new TreeMap<>();
        Map<String, String> boundBy = new TreeMap<>();
        for (Map.Entry<String, Object> e : stringKeys(env).entrySet()) {
            String property = e.getKey();
            String factoryPrefix = prefix(property, FACTORY_PREFIXES);
            String xaFactoryPrefix = prefix(property, XA_FACTORY_PREFIXES);
            if (factoryPrefix != null) {
                bind(
                        bindings,
                        boundBy,
                        property,
                        factoryPrefix,
                        factoryUrl(property, e.getValue(), providerUrl),
                        PartitaConnectionFactory::new);
            } else if (xaFactoryPrefix != null) {
                bind(
                        bindings,
                        boundBy,
                        property,
                        xaFactoryPrefix,
                        factoryUrl(property, e.getValue(), providerUrl),
                        PartitaXAConnectionFactory::new);
            } else if (property.startsWith(QUEUE_PREFIX)) {
                bind(bindings, boundBy, property, QUEUE_PREFIX, destination(property, e.getValue()), PartitaQueue::new);
            } else if (property.startsWith(TOPIC_PREFIX)) {
                bind(bindings, boundBy, property, TOPIC_PREFIX, destination(property, e.getValue()), PartitaTopic::new);
            }
        }
        if (!bindings.containsKey(DEFAULT_FACTORY_NAME)) {
            bindings.put(DEFAULT_FACTORY_NAME, new PartitaConnectionFactory(checkedProviderUrl(providerUrl)));
        }
        return Collections.unmodifiableSortedMap(bindings);
    }

    /** The string-keyed entries, sorted so that errors are reported in a stable order. */
    private static SortedMap<String, Object> stringKeys(Map<?, ?> env) {
        SortedMap<String, Object> result = new TreeMap<>();
        env.forEach((k, v) -> {
            if (k instanceof String s) {
                result.put(s, v);
            }
        });
        return result;
    }

    /** A factory's URL, checked; an empty value means the provider URL. */
    private static String factoryUrl(String property, Object value, String providerUrl) throws ConfigurationException {
        String url = value(property, value);
        return url.isEmpty() ? checkedProviderUrl(providerUrl) : checkUrl(property, url);
    }

    private static String prefix(String property, String[] prefixes) {
        for (String prefix : prefixes) {
            if (property.startsWith(prefix)) {
                return prefix;
            }
        }
        return null;
    }

    private static void bind(
            Map<String, Object> bindings,
            Map<String, String> boundBy,
            String property,
            String prefix,
            String value,
            Function<String, Object> create)
            throws ConfigurationException {
        String name = property.substring(prefix.length());
        if (name.isEmpty()) {
            throw new ConfigurationException("JNDI property '" + property + "' has no name after '" + prefix + "'");
        }
        String earlier = boundBy.putIfAbsent(name, property);
        if (earlier != null) {
            throw new ConfigurationException(
                    "JNDI properties '" + earlier + "' and '" + property + "' both bind the name '" + name + "'");
        }
        bindings.put(name, create.apply(value));
    }

    private static String value(String property, Object value) throws ConfigurationException {
        if (!(value instanceof String s)) {
            throw new ConfigurationException("JNDI property '" + property + "' must be a string, not "
                    + (value == null ? "null" : value.getClass().getName()));
        }
        return s.trim();
    }

    private static String destination(String property, Object value) throws ConfigurationException {
        String name = value(property, value);
        if (name.isEmpty()) {
            throw new ConfigurationException("JNDI property '" + property + "' has an empty destination name");
        }
        return name;
    }

    /** The provider URL as configured, or the default; checked only when something uses it. */
    private static String providerUrl(Map<?, ?> env) throws ConfigurationException {
        Object value = env.get(Context.PROVIDER_URL);
        if (value == null) {
            return DEFAULT_URL;
        }
        String url = value(Context.PROVIDER_URL, value);
        return url.isEmpty() ? DEFAULT_URL : url;
    }

    private static String checkedProviderUrl(String url) throws ConfigurationException {
        return checkUrl(Context.PROVIDER_URL, url);
    }

    private static String checkUrl(String property, String url) throws ConfigurationException {
        try {
            ConnectionOptions.parse(url);
            return url;
        } catch (JMSException e) {
            ConfigurationException ce =
                    new ConfigurationException("JNDI property '" + property + "': " + e.getMessage());
            ce.setRootCause(e);
            throw ce;
        }
    }
}
