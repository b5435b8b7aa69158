package org.partita.spring.boot;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Key and trust stores made by the JDK's keytool, as docs/security.md tells operators to make them. */
final class Stores {
    private Stores() {}

    static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + cmd + ": " + out);
        }
    }

    /** A PKCS12 key store with a fresh EC key pair whose certificate names 127.0.0.1 and localhost. */
    static void keyPair(Path keyStore, String password) throws Exception {
        keytool(
                "-genkeypair",
                "-alias",
                "node",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=node",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-validity",
                "2",
                "-keystore",
                keyStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                password,
                "-keypass",
                password);
    }

    /** A PKCS12 trust store holding the certificate of {@code keyStore}. */
    static void trustStoreOf(Path keyStore, String keyStorePassword, Path trustStore, String password)
            throws Exception {
        Path cert = trustStore.resolveSibling(trustStore.getFileName() + ".cer");
        keytool(
                "-exportcert",
                "-alias",
                "node",
                "-keystore",
                keyStore.toString(),
                "-storepass",
                keyStorePassword,
                "-file",
                cert.toString());
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "node",
                "-file",
                cert.toString(),
                "-keystore",
                trustStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                password);
    }
}
