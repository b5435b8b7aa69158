package org.partita.jms.transport;

import io.netty.handler.ssl.SslContext;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS material an application gives the client in code (a trust store it loads itself, Spring Boot's
 * SSL bundles) instead of the URL's store files: whom the client trusts and the certificate it
 * presents. Compared by identity; the contexts made from it are kept here, so they live as long as
 * the connection factory that holds it and not in {@link ClientTls}'s cache of file settings.
 *
 * @param keyManagers   the client's certificate and key, for a node that asks for one; null: none
 * @param trustManagers the certificates the client trusts; null: the JVM's default trust
 */
public final class TlsManagers {
    private final KeyManagerFactory keyManagers;
    private final TrustManagerFactory trustManagers;
    /** The contexts made so far, by the URL's verifyHost: [0] without, [1] with. */
    private final SslContext[] contexts = new SslContext[2];

    public TlsManagers(KeyManagerFactory keyManagers, TrustManagerFactory trustManagers) {
        this.keyManagers = keyManagers;
        this.trustManagers = trustManagers;
    }

    public KeyManagerFactory keyManagers() {
        return keyManagers;
    }

    public TrustManagerFactory trustManagers() {
        return trustManagers;
    }

    /** The context for these managers and the URL's {@code verifyHost}, made once. */
    synchronized SslContext context(boolean verifyHost, Supplier<SslContext> make) {
        int i = verifyHost ? 1 : 0;
        if (contexts[i] == null) {
            contexts[i] = make.get();
        }
        return contexts[i];
    }

    @Override
    public String toString() {
        return "TlsManagers[keyManagers=" + (keyManagers == null ? "none" : keyManagers.getAlgorithm())
                + ", trustManagers=" + (trustManagers == null ? "JVM default" : trustManagers.getAlgorithm()) + "]";
    }
}
