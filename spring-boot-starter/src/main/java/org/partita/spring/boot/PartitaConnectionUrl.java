package org.partita.spring.boot;

import java.io.FileNotFoundException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.util.ResourceUtils;

/**
 * The client URL the {@code spring.partita.*} properties make: {@code spring.partita.url} with the typed
 * properties and {@code spring.partita.options} appended as URL options. An option set in two places
 * is refused, naming both, so a property never silently loses to the URL or the other way round.
 * Credentials are not written into the URL (see {@link PartitaCredentialsConnectionFactory}), nor are
 * the passwords of key and trust stores: they are kept apart, as {@link Parts#secretOptions()}.
 */
final class PartitaConnectionUrl {

    /** URL options whose values are passwords: never in the URL the factory shows. */
    static final Set<String> SECRET_OPTIONS = Set.of("password", "trustStorePassword", "keyStorePassword");

    private PartitaConnectionUrl() {}

    /**
     * What the properties make: the URL to show ({@code url}, which {@code getUrl()} and messages give)
     * and the options connections add to it, the passwords.
     */
    record Parts(String url, Map<String, String> secretOptions) {

        /** The URL connections are opened with. */
        String connectionUrl() {
            return append(url, secretOptions);
        }

        /** The same with each password replaced, to check the URL and show the client's message about it. */
        String redactedUrl() {
            Map<String, String> masked = new LinkedHashMap<>();
            secretOptions.keySet().forEach(k -> masked.put(k, "******"));
            return append(url, masked);
        }

        /** Whether a node of the URL is ssl://. */
        boolean hasTlsNode() {
            return hasTlsNode(url);
        }

        static boolean hasTlsNode(String url) {
            for (String node : nodes(url).split(",", -1)) {
                if (node.trim().regionMatches(true, 0, "ssl://", 0, 6)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The URL the properties make, without the passwords ({@link #parts} has them). */
    static String of(PartitaProperties properties) {
        return parts(properties).url();
    }

    static Parts parts(PartitaProperties properties) {
        String url = properties.getUrl();
        if (url == null || url.isBlank()) {
            throw new IllegalStateException(
                    "spring.partita.url is empty; expected tcp://host:port, e.g. " + PartitaProperties.DEFAULT_URL);
        }
        url = url.trim();
        Map<String, String> setBy = new LinkedHashMap<>(); // URL option -> where it is set
        for (String option : optionsIn(url)) {
            setBy.put(option, "spring.partita.url");
        }
        Map<String, String> added = new LinkedHashMap<>();
        add(added, setBy, "clientID", properties.getClientId(), "spring.partita.client-id");
        add(
                added,
                setBy,
                "prefetch",
                asString(properties.getPrefetch(), "spring.partita.prefetch"),
                "spring.partita.prefetch");
        add(
                added,
                setBy,
                "prefetchBytes",
                bytes(properties.getPrefetchBytes(), "spring.partita.prefetch-bytes"),
                "spring.partita.prefetch-bytes");
        add(
                added,
                setBy,
                "connectTimeout",
                millis(properties.getConnectTimeout(), "spring.partita.connect-timeout"),
                "spring.partita.connect-timeout");
        add(
                added,
                setBy,
                "greetingTimeout",
                millis(properties.getGreetingTimeout(), "spring.partita.greeting-timeout"),
                "spring.partita.greeting-timeout");
        add(
                added,
                setBy,
                "failoverTimeout",
                millis(properties.getFailoverTimeout(), "spring.partita.failover-timeout"),
                "spring.partita.failover-timeout");
        add(
                added,
                setBy,
                "heartbeat",
                millis(properties.getHeartbeat(), "spring.partita.heartbeat"),
                "spring.partita.heartbeat");
        PartitaProperties.Ssl ssl = properties.getSsl();
        if (ssl.isSet() && !Parts.hasTlsNode(url)) {
            throw new IllegalStateException("spring.partita.ssl.* is set but spring.partita.url (" + nodes(url)
                    + ") has no ssl:// node: TLS is spoken to the nodes named ssl://host:port");
        }
        add(
                added,
                setBy,
                "trustStore",
                location(ssl.getTrustStore(), "spring.partita.ssl.trust-store"),
                "spring.partita.ssl.trust-store");
        add(added, setBy, "trustStorePassword", ssl.getTrustStorePassword(), "spring.partita.ssl.trust-store-password");
        add(
                added,
                setBy,
                "keyStore",
                location(ssl.getKeyStore(), "spring.partita.ssl.key-store"),
                "spring.partita.ssl.key-store");
        add(added, setBy, "keyStorePassword", ssl.getKeyStorePassword(), "spring.partita.ssl.key-store-password");
        add(
                added,
                setBy,
                "verifyHost",
                ssl.getVerifyHost() == null ? null : ssl.getVerifyHost().toString(),
                "spring.partita.ssl.verify-host");
        for (Map.Entry<String, String> e : properties.getOptions().entrySet()) {
            add(
                    added,
                    setBy,
                    e.getKey(),
                    e.getValue() == null ? "" : e.getValue(),
                    "spring.partita.options." + e.getKey());
        }
        if (ssl.getBundle() != null) {
            for (String option : List.of("trustStore", "trustStorePassword", "keyStore", "keyStorePassword")) {
                if (setBy.containsKey(option)) {
                    throw new IllegalStateException("spring.partita.ssl.bundle and " + setBy.get(option)
                            + " both give the client TLS material (the URL option " + option
                            + "); take it from the bundle or from the stores, not both");
                }
            }
        }
        // given as properties, the credentials go to createConnection(user, password), never into the URL
        checkOnce(setBy, "user", properties.getUser(), "spring.partita.user");
        checkOnce(setBy, "password", properties.getPassword(), "spring.partita.password");
        Map<String, String> shown = new LinkedHashMap<>();
        Map<String, String> secret = new LinkedHashMap<>();
        added.forEach((option, value) -> (SECRET_OPTIONS.contains(option) ? secret : shown).put(option, value));
        return new Parts(append(url, shown), secret);
    }

    /** {@code url} with {@code options} appended to its query. */
    static String append(String url, Map<String, String> options) {
        if (options.isEmpty()) {
            return url;
        }
        StringBuilder full = new StringBuilder(url);
        if (url.indexOf('?') < 0) {
            full.append('?');
        } else if (!url.endsWith("?") && !url.endsWith("&")) {
            full.append('&');
        }
        String separator = "";
        for (Map.Entry<String, String> e : options.entrySet()) {
            full.append(separator).append(encode(e.getKey())).append('=').append(encode(e.getValue()));
            separator = "&";
        }
        return full.toString();
    }

    /**
     * {@code url} with its option {@code connectTimeout} at most {@code millis} (0 in the URL, no limit,
     * becomes {@code millis}): the health check's own connections give up sooner than the application's.
     */
    static String withConnectTimeoutAtMost(String url, long millis) {
        int q = url.indexOf('?');
        long current = -1;
        StringBuilder kept = new StringBuilder(q < 0 ? url : url.substring(0, q));
        String separator = "?";
        if (q >= 0) {
            for (String pair : url.substring(q + 1).split("&", -1)) {
                int eq = pair.indexOf('=');
                String name = eq > 0 ? URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8) : pair;
                if (name.equals("connectTimeout")) {
                    try {
                        current = Long.parseLong(URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                    } catch (NumberFormatException e) {
                        current = -1; // checked when the application started; cannot happen
                    }
                } else if (!pair.isEmpty()) {
                    kept.append(separator).append(pair);
                    separator = "&";
                }
            }
        }
        long timeout = current > 0 ? Math.min(current, millis) : millis;
        return kept.append(separator).append("connectTimeout=").append(timeout).toString();
    }

    /** The nodes of a client URL: what comes before its options. */
    static String nodes(String url) {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q);
    }

    /**
     * A key or trust store for the client, which reads files: a path as it is, or a {@code file:} or
     * {@code classpath:} location, which must then be a file (not inside a jar).
     */
    private static String location(String location, String property) {
        if (location == null || !ResourceUtils.isUrl(location)) {
            return location;
        }
        try {
            return ResourceUtils.getFile(location).getAbsolutePath();
        } catch (FileNotFoundException e) {
            throw new IllegalStateException(property + ": " + e.getMessage()
                    + "; the client reads key and trust stores from files: give a file path");
        }
    }

    private static void add(
            Map<String, String> added, Map<String, String> setBy, String option, String value, String property) {
        if (value == null) {
            return;
        }
        checkOnce(setBy, option, value, property);
        added.put(option, value);
    }

    private static void checkOnce(Map<String, String> setBy, String option, String value, String property) {
        if (value == null) {
            return;
        }
        String earlier = setBy.putIfAbsent(option, property);
        if (earlier != null) {
            throw new IllegalStateException(property + " and " + earlier + " both set the connection URL option "
                    + option + "; set it in one place");
        }
    }

    /** The option names in the query of a client URL (the part after its '?'), decoded. */
    private static Iterable<String> optionsIn(String url) {
        Map<String, Boolean> names = new LinkedHashMap<>();
        int q = url.indexOf('?');
        if (q >= 0) {
            for (String pair : url.substring(q + 1).split("&", -1)) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    names.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8), Boolean.TRUE);
                }
            }
        }
        return names.keySet();
    }

    private static String asString(Integer value, String property) {
        if (value == null) {
            return null;
        }
        if (value < 0) {
            throw new IllegalStateException(property + " must not be negative, not " + value);
        }
        return value.toString();
    }

    private static String bytes(org.springframework.util.unit.DataSize value, String property) {
        if (value == null) {
            return null;
        }
        if (value.isNegative()) {
            throw new IllegalStateException(property + " must not be negative, not " + value);
        }
        return Long.toString(value.toBytes());
    }

    private static String millis(Duration value, String property) {
        if (value == null) {
            return null;
        }
        if (value.isNegative()) {
            throw new IllegalStateException(property + " must not be negative, not " + value);
        }
        return Long.toString(value.toMillis());
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
