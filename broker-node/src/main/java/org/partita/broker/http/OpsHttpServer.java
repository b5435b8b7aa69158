package org.partita.broker.http;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import org.partita.broker.security.Authorizer;
import org.partita.broker.security.LoginGate;

/**
 * The node's small HTTP server for operators (the JDK's own): the Prometheus endpoint and the
 * read-only console. It listens on the node's host, and serves whom the node takes node-wide admin
 * commands from ({@link OperatorAccess}): when the node has users every path asks for HTTP basic
 * authentication with a node user who has the manage permission; without users, only loopback
 * clients are served. When the node has a TLS key store the port speaks HTTPS only, so those
 * passwords never cross the wire readable.
 */
public final class OpsHttpServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;
    private final com.sun.net.httpserver.Authenticator auth;
    private final OperatorAccess access;

    /**
     * @param users      the node's users, or null when the node has no users file (then nothing is
     *                   asked, and only loopback clients are served)
     * @param authorizer what each user may do, when there are users
     */
    private OpsHttpServer(
            HttpServer server, ExecutorService executor, LoginGate users, Authorizer authorizer, String realm) {
        this.server = server;
        this.executor = executor;
        this.auth = users == null ? null : new NodeUserAuthenticator(realm, users);
        this.access = users == null ? OperatorAccess.loopbackOnly() : OperatorAccess.managers(authorizer);
    }

    /** @param tls the context to serve HTTPS with, or null for plain HTTP */
    public static OpsHttpServer start(
            String host, int port, LoginGate users, Authorizer authorizer, String realm, SSLContext tls) {
        AtomicLong n = new AtomicLong();
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "partita-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            InetSocketAddress address = new InetSocketAddress(host, port);
            HttpServer server;
            if (tls == null) {
                server = HttpServer.create(address, 16);
            } else {
                HttpsServer https = HttpsServer.create(address, 16);
                https.setHttpsConfigurator(new HttpsConfigurator(tls));
                server = https;
            }
            server.setExecutor(executor);
            OpsHttpServer ops = new OpsHttpServer(server, executor, users, authorizer, realm);
            server.start();
            return ops;
        } catch (IOException e) {
            executor.shutdownNow();
            throw new UncheckedIOException("cannot listen for HTTP on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** Serves {@code path} (and what is under it) with {@code handler}, to those {@link OperatorAccess} lets in. */
    public OpsHttpServer route(String path, HttpHandler handler) {
        var context = server.createContext(path, access.guard(handler));
        if (auth != null) {
            context.setAuthenticator(auth);
        }
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
