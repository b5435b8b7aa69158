package org.partita.broker.config;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The {@code tls.*} fields of a config file, gathered in any order and checked together once the
 * file is read: TLS is on when {@code tls.keyStore} is set.
 *
 * <pre>
 * tls.keyStore = ./node.p12
 * tls.keyStorePassword = change-me
 * tls.trustStore = ./trust.p12
 * tls.trustStorePassword = change-me
 * tls.clientAuth = none | want | need
 * tls.plaintext = loopback | on | off
 * </pre>
 */
final class TlsFields {
    static final String NAMES = "tls.keyStore, tls.keyStorePassword, tls.trustStore, tls.trustStorePassword,"
            + " tls.clientAuth, tls.plaintext";
    private Path keyStore;
    private String keyStorePassword;
    private Path trustStore;
    private String trustStorePassword;
    private TlsSettings.ClientAuth clientAuth;
    private TlsSettings.Plaintext plaintext;
    private String firstWhere;

    void set(String field, String value, String where) {
        if (firstWhere == null) {
            firstWhere = where;
        }
        switch (field) {
            case "tls.keyStore" -> keyStore = Path.of(value);
            case "tls.keyStorePassword" -> keyStorePassword = value;
            case "tls.trustStore" -> trustStore = Path.of(value);
            case "tls.trustStorePassword" -> trustStorePassword = value;
            case "tls.clientAuth" -> clientAuth = choice(TlsSettings.ClientAuth.values(), field, value, where);
            case "tls.plaintext" -> plaintext = choice(TlsSettings.Plaintext.values(), field, value, where);
            default -> throw new ConfigException(where + ": unknown field '" + field + "'; TLS fields: " + NAMES);
        }
    }

    private static <E extends Enum<E>> E choice(E[] values, String field, String value, String where) {
        for (E e : values) {
            if (e.name().equalsIgnoreCase(value)) {
                return e;
            }
        }
        throw new ConfigException(where + ": field '" + field + "' must be one of "
                + Arrays.stream(values)
                        .map(e -> e.name().toLowerCase(Locale.ROOT))
                        .toList() + ", not '" + value + "'");
    }

    NodeConfig applyTo(NodeConfig c) {
        if (firstWhere == null) {
            return c;
        }
        if (keyStore == null || keyStore.toString().isEmpty()) {
            throw new ConfigException(firstWhere + ": TLS needs field 'tls.keyStore' (the node's certificate and key)");
        }
        return c.withSecurity(c.security()
                .withTls(new TlsSettings(
                        keyStore, keyStorePassword, trustStore, trustStorePassword, clientAuth, plaintext)));
    }
}
