package org.partita.protocol.auth;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Salted password hashes as kept in a users file: {@code pbkdf2-sha256:<iterations>:<salt>:<hash>},
 * salt and hash in Base64. PBKDF2 with HMAC-SHA256 comes with the JDK.
 */
public final class PasswordHash {
    private static final String ALGORITHM = "pbkdf2-sha256";
    /** Iterations of new hashes. */
    public static final int ITERATIONS = 210_000;

    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final int iterations;
    private final byte[] salt;
    private final byte[] hash;

    private PasswordHash(int iterations, byte[] salt, byte[] hash) {
        this.iterations = iterations;
        this.salt = salt;
        this.hash = hash;
    }

    /** A new hash of {@code password} with a fresh random salt. */
    public static String create(char[] password) {
        return create(password, ITERATIONS);
    }

    /** A new hash with a given cost (a stand-in as costly as the hashes of a users file). */
    public static String create(char[] password, int iterations) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        byte[] hash = derive(password, salt, iterations);
        return ALGORITHM + ":" + iterations + ":" + Base64.getEncoder().encodeToString(salt) + ":"
                + Base64.getEncoder().encodeToString(hash);
    }

    /** Reads the text form; throws IllegalArgumentException saying what is wrong. */
    public static PasswordHash parse(String text) {
        String[] parts = text.strip().split(":");
        if (parts.length != 4 || !parts[0].equals(ALGORITHM)) {
            throw new IllegalArgumentException("expected " + ALGORITHM + ":<iterations>:<salt>:<hash>");
        }
        try {
            int iterations = Integer.parseInt(parts[1]);
            if (iterations < 1) {
                throw new IllegalArgumentException("iterations must be positive");
            }
            return new PasswordHash(
                    iterations,
                    Base64.getDecoder().decode(parts[2]),
                    Base64.getDecoder().decode(parts[3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("iterations must be a number, not '" + parts[1] + "'");
        }
    }

    /** How many PBKDF2 rounds this hash took; a check of a wrong password must take as many. */
    public int iterations() {
        return iterations;
    }

    /** Compares in constant time. */
    public boolean matches(char[] password) {
        return MessageDigest.isEqual(hash, derive(password, salt, iterations));
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        try {
            PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available in this JVM", e);
        }
    }
}
