package org.partita.spring.boot;

import org.partita.jms.client.PartitaConnectionFactory;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * {@code spring.partita.ssl.bundle}: the trust and key material of one of Boot's SSL bundles
 * ({@code spring.ssl.bundle.jks.*}, {@code spring.ssl.bundle.pem.*}) given to the client's factory,
 * as Boot gives its bundles to the clients it configures ({@code spring.data.redis.ssl.bundle}, ...).
 * The bundle is read once, when the application starts.
 */
final class PartitaSslBundle {
    private static final String PROPERTY = "spring.partita.ssl.bundle";

    private PartitaSslBundle() {}

    /**
     * Gives the bundle's trust managers to {@code factory}, and its key managers when it has a key
     * store: a bundle of trust material alone presents no certificate. A bundle that is missing, or
     * that sets ciphers or protocols the client would not apply, stops the application.
     */
    static void apply(String name, SslBundles bundles, PartitaConnectionFactory factory) {
        if (bundles == null) {
            throw new IllegalStateException(PROPERTY + "=" + name + " but the application has no SslBundles bean"
                    + " (Boot's SslAutoConfiguration makes it from spring.ssl.bundle.*)");
        }
        SslBundle bundle;
        try {
            bundle = bundles.getBundle(name);
        } catch (NoSuchSslBundleException e) {
            throw new IllegalStateException(
                    PROPERTY + ": " + e.getMessage() + "; define it as spring.ssl.bundle.jks." + name
                            + ".* or spring.ssl.bundle.pem." + name + ".*",
                    e);
        }
        if (bundle.getOptions().isSpecified()) {
            // the client takes trust and key managers only: ciphers or protocols silently left out would be worse
            throw new IllegalStateException(PROPERTY + "=" + name + ": the bundle sets options (ciphers,"
                    + " enabled-protocols), which the Partita client does not apply; leave them out of the bundle");
        }
        factory.setTrustManagerFactory(bundle.getManagers().getTrustManagerFactory());
        if (bundle.getStores().getKeyStore() != null) {
            factory.setKeyManagerFactory(bundle.getManagers().getKeyManagerFactory());
        }
    }
}
