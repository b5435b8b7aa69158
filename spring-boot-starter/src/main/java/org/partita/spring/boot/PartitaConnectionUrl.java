package org.partita.spring.boot;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client URL the {@code spring.partita.*} properties make: {@code spring.partita.url} with the typed
 * properties and {@code spring.partita.options} appended as URL options. An option set in two places
 * is refused, naming both, so a property never silently loses to the URL or the other way round.
 * Credentials are not written into the URL (see {@link PartitaCredentialsConnectionFactory}).
 */
final class PartitaConnectionUrl {

    private PartitaConnectionUrl() {}

    static String of(PartitaProperties properties) {
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
                "connectTimeout",
                millis(properties.getConnectTimeout(), "spring.partita.connect-timeout"),
                "spring.partita.connect-timeout");
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
        for (Map.Entry<String, String> e : properties.getOptions().entrySet()) {
            add(
                    added,
                    setBy,
                    e.getKey(),
                    e.getValue() == null ? "" : e.getValue(),
                    "spring.partita.options." + e.getKey());
        }
        // given as properties, the credentials go to createConnection(user, password), never into the URL
        checkOnce(setBy, "user", properties.getUser(), "spring.partita.user");
        checkOnce(setBy, "password", properties.getPassword(), "spring.partita.password");
        if (added.isEmpty()) {
            return url;
        }
        StringBuilder full = new StringBuilder(url);
        if (url.indexOf('?') < 0) {
            full.append('?');
        } else if (!url.endsWith("?") && !url.endsWith("&")) {
            full.append('&');
        }
        String separator = "";
        for (Map.Entry<String, String> e : added.entrySet()) {
            full.append(separator).append(encode(e.getKey())).append('=').append(encode(e.getValue()));
            separator = "&";
        }
        return full.toString();
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
