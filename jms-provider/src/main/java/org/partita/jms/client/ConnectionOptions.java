package org.partita.jms.client;

import jakarta.jms.JMSException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.partita.jms.transport.ClientTls;
import org.partita.jms.transport.NodeAddress;
import org.partita.protocol.Protocol;

/**
 * What a connection factory URL says: {@code tcp://host:port?clientID=x&user=u&password=p&prefetch=n},
 * {@code ssl://host:port?trustStore=...} for TLS, or several nodes {@code tcp://a:61700,ssl://b:61700?...}, whose options (after the last node)
 * apply to every node. The README lists every option; unknown options are refused so a typo does
 * not pass silently.
 */
public record ConnectionOptions(
        List<NodeAddress> nodes,
        String clientId,
        String user,
        String password,
        int prefetch,
        long prefetchBytes,
        int maxFrameSize,
        long connectTimeoutMillis,
        long greetingTimeoutMillis,
        long failoverTimeoutMillis,
        long heartbeatMillis,
        ClientTls tls,
        boolean sendAgain,
        int largeMessageBytes) {

    public static final int DEFAULT_PREFETCH = 500;
    /**
     * What a consumer holds at most in bytes by default, beside its {@code prefetch} of messages: 4 MiB,
     * or a sixteenth of this JVM's heap when that is less (at least 256 KiB). One message larger than
     * the window still comes, alone.
     */
    public static final long DEFAULT_PREFETCH_BYTES =
            Math.max(256L << 10, Math.min(4L << 20, Runtime.getRuntime().maxMemory() / 16));

    /**
     * A message whose body is larger than this (1 MiB by default) travels as a large message: its body
     * in parts beside it, kept by the node in a file of its own, never whole in the node's heap
     * (docs/large-messages.md). A body from a stream ({@code JMS_PARTITA_InputStream}) always does.
     */
    public static final int DEFAULT_LARGE_MESSAGE_BYTES = 1 << 20;

    public static final int DEFAULT_CONNECT_TIMEOUT = 10_000;
    /**
     * How long a node's first answer may take after the TCP connect: it answers a HELLO at once,
     * before it checks the login, so this bounds what a port where something else listens in
     * silence costs, short of connectTimeout. Long enough for a TLS handshake over a slow link.
     */
    public static final int DEFAULT_GREETING_TIMEOUT = 3_000;

    public static final int DEFAULT_FAILOVER_TIMEOUT = 30_000;
    /** The client pings a node it has heard nothing from for this long, and gives up on it after twice. */
    public static final int DEFAULT_HEARTBEAT = 10_000;
    /** A node's URL inside the options: {@code tcp://a:1?x=1,tcp://b:2}. */
    private static final java.util.regex.Pattern ANOTHER_NODE =
            java.util.regex.Pattern.compile(",\\s*[A-Za-z][A-Za-z0-9+.-]*://");

    public ConnectionOptions {
        nodes = List.copyOf(nodes);
    }

    public static ConnectionOptions parse(String url) throws JMSException {
        if (url == null || url.isBlank()) {
            throw new JMSException("connection URL is empty; expected tcp://host:port");
        }
        String trimmed = url.trim();
        int q = trimmed.indexOf('?');
        String nodeList = q < 0 ? trimmed : trimmed.substring(0, q);
        List<NodeAddress> nodes = new ArrayList<>();
        String[] elements = nodeList.split(",", -1);
        for (String element : elements) {
            nodes.add(node(element.trim(), url, elements.length > 1));
        }
        String rawQuery = q < 0 ? null : trimmed.substring(q + 1);
        if (rawQuery != null && ANOTHER_NODE.matcher(rawQuery).find()) {
            throw new JMSException("connection URL '" + url + "' has options before its last node; options"
                    + " go once, after the last node, and apply to all: tcp://a:61700,tcp://b:61700?prefetch=10");
        }
        Map<String, String> query = query(rawQuery, url);
        ConnectionOptions o = new ConnectionOptions(
                nodes,
                query.remove("clientID"),
                query.remove("user"),
                query.remove("password"),
                intOption(query.remove("prefetch"), DEFAULT_PREFETCH, "prefetch", url),
                longOption(query.remove("prefetchBytes"), DEFAULT_PREFETCH_BYTES, "prefetchBytes", url),
                intOption(query.remove("maxFrameSize"), Protocol.DEFAULT_MAX_FRAME_SIZE, "maxFrameSize", url),
                intOption(query.remove("connectTimeout"), DEFAULT_CONNECT_TIMEOUT, "connectTimeout", url),
                intOption(query.remove("greetingTimeout"), DEFAULT_GREETING_TIMEOUT, "greetingTimeout", url),
                intOption(query.remove("failoverTimeout"), DEFAULT_FAILOVER_TIMEOUT, "failoverTimeout", url),
                intOption(query.remove("heartbeat"), DEFAULT_HEARTBEAT, "heartbeat", url),
                new ClientTls(
                        query.remove("trustStore"),
                        query.remove("trustStorePassword"),
                        query.remove("keyStore"),
                        query.remove("keyStorePassword"),
                        boolOption(query.remove("verifyHost"), true, "verifyHost", url)),
                boolOption(query.remove("sendAgain"), true, "sendAgain", url),
                intOption(query.remove("largeMessageBytes"), DEFAULT_LARGE_MESSAGE_BYTES, "largeMessageBytes", url));
        if (!query.isEmpty()) {
            throw new JMSException("connection URL '" + url + "' has unknown options " + query.keySet()
                    + "; known: clientID, user, password, prefetch, prefetchBytes, maxFrameSize, connectTimeout,"
                    + " greetingTimeout, failoverTimeout, heartbeat, trustStore, trustStorePassword, keyStore,"
                    + " keyStorePassword, verifyHost, sendAgain, largeMessageBytes");
        }
        return o;
    }

    /** One node of the list: {@code tcp://host[:port]}, options only after the last one. */
    private static NodeAddress node(String element, String url, boolean several) throws JMSException {
        String which = several ? ": '" + element + "' is not" : "";
        if (element.isEmpty()) {
            throw new JMSException("connection URL '" + url + "' has an empty node in its list; expected"
                    + " tcp://host:port,tcp://host:port");
        }
        URI uri;
        try {
            uri = new URI(element);
        } catch (URISyntaxException e) {
            throw new JMSException("connection URL '" + url + "' is not a URI: " + e.getMessage());
        }
        boolean tls = "ssl".equalsIgnoreCase(uri.getScheme());
        if (!(tls || "tcp".equalsIgnoreCase(uri.getScheme())) || uri.getHost() == null) {
            throw new JMSException("connection URL '" + url + "' must look like tcp://host:port (or ssl://host:port"
                    + " for TLS), or tcp://host:port,ssl://host:port for several nodes" + which);
        }
        return new NodeAddress(uri.getHost(), uri.getPort() < 0 ? Protocol.DEFAULT_PORT : uri.getPort(), tls);
    }

    /** More than one node: the connection fails over between them. */
    public boolean failsOver() {
        return nodes.size() > 1;
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

    private static boolean boolOption(String value, boolean dflt, String name, String url) throws JMSException {
        if (value == null) {
            return dflt;
        }
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new JMSException(
                "connection URL '" + url + "': option " + name + " must be true or false, not '" + value + "'");
    }

    private static int intOption(String value, int dflt, String name, String url) throws JMSException {
        return Math.toIntExact(number(value, dflt, Integer.MAX_VALUE, name, url));
    }

    private static long longOption(String value, long dflt, String name, String url) throws JMSException {
        return number(value, dflt, Long.MAX_VALUE, name, url);
    }

    private static long number(String value, long dflt, long max, String name, String url) throws JMSException {
        if (value == null) {
            return dflt;
        }
        try {
            long v = Long.parseLong(value);
            if (v < 0 || v > max) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new JMSException("connection URL '" + url + "': option " + name
                    + " must be a non-negative integer" + (max == Integer.MAX_VALUE ? " up to " + max : "")
                    + ", not '" + value + "'");
        }
    }
}
