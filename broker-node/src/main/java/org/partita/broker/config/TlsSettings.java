package org.partita.broker.config;

import java.nio.file.Path;

/**
 * TLS of the node's port and of its links to other nodes (docs/security.md).
 *
 * @param keyStore           the node's certificate and private key (PKCS12 or JKS)
 * @param keyStorePassword   the key store's password (also the key's)
 * @param trustStore         the certificates the node trusts: client certificates, and other nodes
 *                           when it links to them; null for the JVM's default trust
 * @param trustStorePassword the trust store's password
 * @param clientAuth         whether clients must present a certificate
 * @param plaintext          which clients may still connect without TLS, on the same port
 */
public record TlsSettings(
        Path keyStore,
        String keyStorePassword,
        Path trustStore,
        String trustStorePassword,
        ClientAuth clientAuth,
        Plaintext plaintext) {

    /** Whether clients present a certificate the trust store must accept. */
    public enum ClientAuth {
        NONE,
        WANT,
        NEED
    }

    /** Who may connect without TLS while TLS is on. */
    public enum Plaintext {
        /** Only clients on the node's own machine (the default). */
        LOOPBACK,
        /** Every client (for a trusted network only). */
        ON,
        /** Nobody: TLS only. */
        OFF
    }

    public TlsSettings {
        if (keyStore == null) {
            throw new IllegalArgumentException("TLS needs a key store (tls.keyStore)");
        }
        keyStorePassword = keyStorePassword == null ? "" : keyStorePassword;
        trustStorePassword = trustStorePassword == null ? "" : trustStorePassword;
        clientAuth = clientAuth == null ? ClientAuth.NONE : clientAuth;
        plaintext = plaintext == null ? Plaintext.LOOPBACK : plaintext;
    }

    /** TLS with this key store, the JVM's default trust, no client certificates, plaintext from loopback. */
    public static TlsSettings of(Path keyStore, String password) {
        return new TlsSettings(keyStore, password, null, null, null, null);
    }

    public TlsSettings withTrustStore(Path store, String password) {
        return new TlsSettings(keyStore, keyStorePassword, store, password, clientAuth, plaintext);
    }

    public TlsSettings withClientAuth(ClientAuth a) {
        return new TlsSettings(keyStore, keyStorePassword, trustStore, trustStorePassword, a, plaintext);
    }

    public TlsSettings withPlaintext(Plaintext p) {
        return new TlsSettings(keyStore, keyStorePassword, trustStore, trustStorePassword, clientAuth, p);
    }

    @Override
    public String toString() { // never the passwords
        return "TlsSettings[keyStore=" + keyStore + ", trustStore=" + trustStore + ", clientAuth=" + clientAuth
                + ", plaintext=" + plaintext + "]";
    }
}
