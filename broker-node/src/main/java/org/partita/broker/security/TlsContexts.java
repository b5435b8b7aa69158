package org.partita.broker.security;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.partita.broker.config.ConfigException;
import org.partita.broker.config.TlsSettings;

/**
 * The node's TLS contexts, built once from its {@link TlsSettings}: the server side of its port,
 * and the client side of its links to other nodes (same key, same trust). Netty's JDK provider, or
 * OpenSSL when netty-tcnative is on the class path.
 */
public final class TlsContexts {
    private final SslContext server;
    private final SslContext links;
    private final SSLContext http;

    private TlsContexts(SslContext server, SslContext links, SSLContext http) {
        this.server = server;
        this.links = links;
        this.http = http;
    }

    public static TlsContexts of(TlsSettings tls) {
        KeyManagerFactory keys = keys(tls);
        TrustManagerFactory trust = tls.trustStore() == null ? null : trust(tls);
        SslProvider provider = OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
        try {
            SslContext server = SslContextBuilder.forServer(keys)
                    .trustManager(trust)
                    .sslProvider(provider)
                    .clientAuth(
                            switch (tls.clientAuth()) {
                                case NONE -> ClientAuth.NONE;
                                case WANT -> ClientAuth.OPTIONAL;
                                case NEED -> ClientAuth.REQUIRE;
                            })
                    .build();
            SslContext links = SslContextBuilder.forClient()
                    .keyManager(keys)
                    .trustManager(trust)
                    .sslProvider(provider)
                    .endpointIdentificationAlgorithm("HTTPS")
                    .build();
            SSLContext http = SSLContext.getInstance("TLS");
            http.init(keys.getKeyManagers(), null, null);
            return new TlsContexts(server, links, http);
        } catch (SSLException | GeneralSecurityException e) {
            throw new ConfigException("cannot set up TLS with " + tls + ": " + e.getMessage());
        }
    }

    public SslContext server() {
        return server;
    }

    /**
     * The JDK's context for the operators' HTTP port (metrics and console): the node's key, no client
     * certificates (the port asks for a node user and password instead).
     */
    public SSLContext http() {
        return http;
    }

    /** What this node presents and trusts when it links to another node. */
    public SslContext links() {
        return links;
    }

    private static KeyManagerFactory keys(TlsSettings tls) {
        try {
            KeyManagerFactory f = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            f.init(
                    load(tls.keyStore(), tls.keyStorePassword(), "tls.keyStore"),
                    tls.keyStorePassword().toCharArray());
            return f;
        } catch (GeneralSecurityException e) {
            throw new ConfigException("tls.keyStore " + tls.keyStore() + ": " + e.getMessage());
        }
    }

    private static TrustManagerFactory trust(TlsSettings tls) {
        try {
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init(load(tls.trustStore(), tls.trustStorePassword(), "tls.trustStore"));
            return f;
        } catch (GeneralSecurityException e) {
            throw new ConfigException("tls.trustStore " + tls.trustStore() + ": " + e.getMessage());
        }
    }

    /** PKCS12 or JKS, told apart by the JDK from the file itself. */
    private static KeyStore load(java.nio.file.Path file, String password, String field) {
        try {
            return KeyStore.getInstance(file.toFile(), password.toCharArray());
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(field + " " + file + " cannot be read: " + e.getMessage());
        }
    }
}
