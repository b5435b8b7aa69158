package org.partita.boot;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The stores of a node that speaks TLS only and asks clients for a certificate, and of an application
 * that connects to it, made with keytool as docs/security.md says: each side's key pair (an EC key
 * whose certificate names 127.0.0.1 and localhost) and a trust store holding the other side's
 * certificate.
 */
final class TlsStores {
    static final String NODE_PASSWORD = "node-pw";
    static final String NODE_TRUST_PASSWORD = "node-trust-pw";
    static final String APP_PASSWORD = "app-pw";
    static final String APP_TRUST_PASSWORD = "app-trust-pw";

    final Path nodeKeys;
    final Path nodeTrust;
    final Path appKeys;
    final Path appTrust;

    private TlsStores(Path dir) {
        nodeKeys = dir.resolve("node.p12");
        nodeTrust = dir.resolve("node-trust.p12");
        appKeys = dir.resolve("app.p12");
        appTrust = dir.resolve("app-trust.p12");
    }

    static TlsStores make(Path dir) throws Exception {
        TlsStores s = new TlsStores(dir);
        keyPair(s.nodeKeys, "node", NODE_PASSWORD);
        keyPair(s.appKeys, "app", APP_PASSWORD);
        trust(s.nodeKeys, "node", NODE_PASSWORD, s.appTrust, APP_TRUST_PASSWORD);
        trust(s.appKeys, "app", APP_PASSWORD, s.nodeTrust, NODE_TRUST_PASSWORD);
        return s;
    }

    /** The node's config: TLS only ({@code tls.plaintext = off}), a client certificate needed. */
    String nodeConfig() {
        return String.join("\n",
                "tls.keyStore = " + nodeKeys,
                "tls.keyStorePassword = " + NODE_PASSWORD,
                "tls.trustStore = " + nodeTrust,
                "tls.trustStorePassword = " + NODE_TRUST_PASSWORD,
                "tls.clientAuth = need",
                "tls.plaintext = off");
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + cmd + ": " + out);
        }
    }

    private static void keyPair(Path store, String alias, String password) throws Exception {
        keytool("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + alias,
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", store.toString(),
                "-storetype", "PKCS12", "-storepass", password, "-keypass", password);
    }

    /** A PKCS12 trust store holding the certificate of {@code keyStore}. */
    private static void trust(Path keyStore, String alias, String password, Path trustStore, String trustPassword)
            throws Exception {
        Path cert = keyStore.resolveSibling(alias + ".cer");
        if (!Files.exists(cert)) {
            keytool("-exportcert", "-alias", alias, "-keystore", keyStore.toString(), "-storepass", password,
                    "-file", cert.toString());
        }
        keytool("-importcert", "-noprompt", "-alias", alias, "-file", cert.toString(), "-keystore",
                trustStore.toString(), "-storetype", "PKCS12", "-storepass", trustPassword);
    }
}
