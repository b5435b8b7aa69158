package org.partita.jms.client;

import jakarta.jms.JMSException;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a connection factory URL says: {@code tcp://host:port?clientID=x&user=u&password=p&prefetch=n}.
 * The README lists every option; unknown options are refused so a typo does not pass silently.
 */
public record ConnectionOptions(String host, int port, String clientId, String user, String password,
                                int prefetch, int maxFrameSize, long connectTimeoutMillis) {

    public static final int DEFAULT_PREFETCH = 500;

    public static ConnectionOptions parse(String url) throws JMSException {
        if (url == null || url.isBlank()) {
            throw new JMSException("connection URL is empty; expected tcp://host:port");
        }
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new JMSException("connection URL '" + url + "' is not a URI: " + e.getMessage());
        }
        if (!"tcp".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new JMSException("connection URL '" + url + "' must look like tcp://host:port");
        }
        int port = uri.getPort() < 0 ? org.partita.jms.protocol.Protocol.DEFAULT_PORT : uri.getPort();
        Map<String, String> query = query(uri.getRawQuery(), url);
        ConnectionOptions o = new ConnectionOptions(uri.getHost(), port, query.remove("clientID"),
                query.remove("user"), query.remove("password"),
                intOption(query.remove("prefetch"), DEFAULT_PREFETCH, "prefetch", url),
                intOption(query.remove("maxFrameSize"), org.partita.jms.protocol.Protocol.DEFAULT_MAX_FRAME_SIZE,
                        "maxFrameSize", url),
                intOption(query.remove("connectTimeout"), 10_000, "connectTimeout", url));
        if (!query.isEmpty()) {
            throw new JMSException("connection URL '" + url + "' has unknown options " + query.keySet()
                    + "; known: clientID, user, password, prefetch, maxFrameSize, connectTimeout");
        }
        return o;
    }

    public String url() {
        return "tcp://" + host + ":" + port;
    }

    private static Map<String, String> query(String raw, String url) throws JMSException {
        Map<String, String> map = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return map;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new JMSException("connection URL '" + url + "' has an option without a value: " + pair);
            }
            map.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
        }
        return map;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static int intOption(String value, int dflt, String name, String url) throws JMSException {
        if (value == null) {
            return dflt;
        }
        try {
            int v = Integer.parseInt(value);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new JMSException("connection URL '" + url + "': option " + name + " must be a non-negative integer, not '" + value + "'");
        }
    }
}
