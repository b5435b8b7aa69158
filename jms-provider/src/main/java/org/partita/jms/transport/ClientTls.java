package org.partita.jms.transport;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.File;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.partita.protocol.ErrorCode;

/**
 * How a client speaks TLS to the {@code ssl://} nodes of its URL: whom it trusts (a trust store,
 * or the JVM's default), the certificate it presents if the node asks for one (a key store), and
 * whether the node's certificate must name the host the URL names. The context is built on first use.
 * The trust and key material come from the URL's store files, or from {@link TlsManagers} the
 * application gave the connection factory in code, never from both.
 *
 * @param trustStore         path of a PKCS12 or JKS trust store, or null for the JVM's default trust
 * @param keyStore           path of a key store holding the client's certificate and key, or null
 * @param verifyHost         whether the node's certificate must match the URL's host (default true)
 * @param managers           the material given in code, or null: the store files' (or the JVM's)
 */
public record ClientTls(
        String trustStore,
        String trustStorePassword,
        String keyStore,
        String keyStorePassword,
        boolean verifyHost,
        TlsManagers managers) {

    public static final ClientTls DEFAULT = new ClientTls(null, null, null, null, true);

    public ClientTls {
        if (managers != null && (trustStore != null || keyStore != null)) {
            throw new IllegalArgumentException("TLS material given in code replaces the trustStore and keyStore"
                    + " options; they cannot be used together");
        }
    }

    /** Settings from the URL's options alone. */
    public ClientTls(
            String trustStore,
            String trustStorePassword,
            String keyStore,
            String keyStorePassword,
            boolean verifyHost) {
        this(trustStore, trustStorePassword, keyStore, keyStorePassword, verifyHost, null);
    }

    /** The same settings with the trust and key material given in code (null: none, as these are). */
    public ClientTls with(TlsManagers given) {
        return new ClientTls(trustStore, trustStorePassword, keyStore, keyStorePassword, verifyHost, given);
    }

    private static final java.util.Map<ClientTls, SslContext> CONTEXTS = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The Netty context for these settings, built once per distinct settings (for material given in
     * code, once per {@link TlsManagers} and verifyHost, kept there).
     */
    public SslContext context() {
        if (managers != null) {
            return managers.context(verifyHost, this::build);
        }
        SslContext c = CONTEXTS.get(this);
        if (c == null) {
            c = build();
            CONTEXTS.putIfAbsent(this, c);
        }
        return c;
    }

    private SslContext build() {
        try {
            SslContextBuilder b = SslContextBuilder.forClient()
                    .sslProvider(OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK)
                    .endpointIdentificationAlgorithm(verifyHost ? "HTTPS" : null);
            if (managers != null) {
                if (managers.trustManagers() != null) {
                    b.trustManager(managers.trustManagers());
                }
                if (managers.keyManagers() != null) {
                    b.keyManager(managers.keyManagers());
                }
            }
            if (trustStore != null) {
                TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                f.init(load(trustStore, trustStorePassword, "trustStore"));
                b.trustManager(f);
            }
            if (keyStore != null) {
                KeyManagerFactory f = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                f.init(load(keyStore, keyStorePassword, "keyStore"), chars(keyStorePassword));
                b.keyManager(f);
            }
            return b.build();
        } catch (GeneralSecurityException | IOException e) {
            throw new BrokerError(ErrorCode.INTERNAL, "cannot set up TLS: " + e.getMessage());
        }
    }

    private static KeyStore load(String path, String password, String option) {
        try {
            return KeyStore.getInstance(new File(path), chars(password));
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            // IllegalArgumentException: no such file (a JMSException for the caller, as the others)
            throw new BrokerError(
                    ErrorCode.INTERNAL, "option " + option + ": cannot read " + path + ": " + e.getMessage());
        }
    }

    private static char[] chars(String password) {
        return password == null ? new char[0] : password.toCharArray();
    }

    @Override
    public String toString() { // never the passwords
        return "ClientTls[trustStore=" + trustStore + ", keyStore=" + keyStore + ", verifyHost=" + verifyHost
                + (managers == null ? "" : ", " + managers) + "]";
    }
}
