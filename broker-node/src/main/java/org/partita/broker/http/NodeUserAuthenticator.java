package org.partita.broker.http;

import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpExchange;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.partita.broker.logging.RateLimitedLog;
import org.partita.broker.security.LoginGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP basic authentication against the node's users file. Checking a password costs a PBKDF2
 * derivation (about a tenth of a second), and a console or a scraper asks on every request, so a
 * password found right is remembered, as an HMAC under a key made at start, until the node stops
 * (the users file is only read at start anyway). A wrong password is always checked in full.
 * After a failed login the same address and user must wait (as on the node's own protocol): an
 * attempt that comes earlier is answered 429 with {@code Retry-After} and no password check, before
 * the remembered passwords are even looked at, so guessing over HTTP is no faster than over TCP.
 */
final class NodeUserAuthenticator extends BasicAuthenticator {
    private static final Logger LOG = LoggerFactory.getLogger(NodeUserAuthenticator.class);
    private static final int MAX_REMEMBERED = 1024;

    private static final RateLimitedLog EVENTS = new RateLimitedLog(LOG);

    private final LoginGate users;
    /** The address of the request being authenticated: BasicAuthenticator hands only user and password on. */
    private final ThreadLocal<String> remote = new ThreadLocal<>();
    /** Set by {@link #checkCredentials} when the attempt came before its wait was over: milliseconds left. */
    private final ThreadLocal<Long> tooEarly = new ThreadLocal<>();

    private final byte[] key = new byte[32];
    private final Map<String, String> remembered = new ConcurrentHashMap<>();

    NodeUserAuthenticator(String realm, LoginGate users) {
        super(realm);
        this.users = users;
        new SecureRandom().nextBytes(key);
    }

    @Override
    public Result authenticate(HttpExchange exchange) {
        remote.set(
                exchange.getRemoteAddress() == null
                                || exchange.getRemoteAddress().getAddress() == null
                        ? "unknown"
                        : exchange.getRemoteAddress().getAddress().getHostAddress());
        try {
            Result result = super.authenticate(exchange);
            Long wait = tooEarly.get();
            if (wait == null) {
                return result;
            }
            exchange.getResponseHeaders().set("Retry-After", Long.toString(Math.max(1, (wait + 999) / 1000)));
            return new Failure(429);
        } finally {
            remote.remove();
            tooEarly.remove();
        }
    }

    @Override
    public boolean checkCredentials(String user, String password) {
        String from = remote.get() == null ? "unknown" : remote.get();
        long wait = users.mustWaitMillis(from, user);
        if (wait > 0) {
            tooEarly.set(wait);
            return false;
        }
        String mark = mark(user, password);
        if (mark.equals(remembered.get(user))) {
            return true;
        }
        String refusal = users.checkNow(from, user, password); // counted with the node's failed logins
        if (refusal != null) {
            EVENTS.log(
                    org.slf4j.event.Level.INFO,
                    "login.failed",
                    Map.of("user", user, "remote", from, "via", "http", "reason", refusal),
                    "HTTP login refused for user {} from {}: {}",
                    user,
                    from,
                    refusal);
            return false;
        }
        if (remembered.size() < MAX_REMEMBERED) {
            remembered.put(user, mark);
        }
        return true;
    }

    private String mark(String user, String password) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(user.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return java.util.HexFormat.of().formatHex(mac.doFinal(password.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
