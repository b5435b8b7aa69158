package org.partita.spring.boot;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * What the {@code partita} health indicator reports, whichever Boot's {@code HealthIndicator} it is
 * given through: UP when a connection to a node of the factory's URL opens (connected, handshake and
 * login done) within the health timeout, DOWN with the client's error code and message otherwise. The
 * check opens a connection of its own with the factory's URL and credentials, closes it at once, and
 * does not count in the factory's {@code partita.client.*} meters.
 */
public final class PartitaHealthCheck {

    /** The outcome: up or down, and the details to show. */
    public record Result(boolean up, Map<String, Object> details) {}

    private final PartitaConnectionFactory probe;
    private final String nodes;

    /**
     * @param factory the application's factory; its URL (and credentials and passwords, for the
     *                starter's own) are used with a connect timeout of at most {@code timeout}
     */
    public PartitaHealthCheck(PartitaConnectionFactory factory, Duration timeout) {
        long millis = Math.max(1, timeout.toMillis());
        String url = PartitaConnectionUrl.withConnectTimeoutAtMost(factory.getUrl(), millis);
        this.probe = factory instanceof PartitaCredentialsConnectionFactory c
                ? c.withUrl(url)
                : new PartitaConnectionFactory(url);
        // TLS material given in code (an SSL bundle's) is not in the URL: the check's connections take it too
        probe.setTrustManagerFactory(factory.getTrustManagerFactory());
        probe.setKeyManagerFactory(factory.getKeyManagerFactory());
        this.nodes = PartitaConnectionUrl.nodes(factory.getUrl());
    }

    public Result check() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("url", nodes);
        try (Connection c = probe.createConnection()) {
            return new Result(true, details);
        } catch (JMSException e) {
            if (e.getErrorCode() != null) {
                details.put("errorCode", e.getErrorCode());
            }
            details.put("error", e.getClass().getName() + ": " + e.getMessage());
            return new Result(false, details);
        } catch (RuntimeException e) {
            details.put("error", e.getClass().getName() + ": " + e.getMessage());
            return new Result(false, details);
        }
    }
}
