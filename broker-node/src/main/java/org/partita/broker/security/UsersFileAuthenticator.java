package org.partita.broker.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.partita.broker.config.ConfigException;
import org.partita.protocol.auth.PasswordHash;

/**
 * Checks credentials against a users file: one {@code user = pbkdf2-sha256:...} per line, {@code #}
 * comments (make a line with {@code partita-node --hash-password USER}). A connection without
 * credentials is accepted only when the node allows anonymous connections.
 */
public final class UsersFileAuthenticator implements Authenticator {
    private final Map<String, PasswordHash> users;
    private final boolean allowAnonymous;
    /**
     * Checked in place of an unknown user's hash, with as many iterations as the costliest real
     * one, so that an unknown user name takes as long to refuse as a wrong password and the time of
     * a refusal does not tell which users exist.
     */
    private final PasswordHash stranger;

    private UsersFileAuthenticator(Map<String, PasswordHash> users, boolean allowAnonymous) {
        this.users = users;
        this.allowAnonymous = allowAnonymous;
        int iterations =
                users.values().stream().mapToInt(PasswordHash::iterations).max().orElse(PasswordHash.ITERATIONS);
        this.stranger = PasswordHash.parse(PasswordHash.create(new char[] {'-'}, iterations));
    }

    public static UsersFileAuthenticator load(Path file, boolean allowAnonymous) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new ConfigException("cannot read users file " + file + ": " + e);
        }
        Map<String, PasswordHash> users = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            String where = file + ":" + (i + 1);
            if (eq <= 0) {
                throw new ConfigException(where + ": expected 'user = pbkdf2-sha256:...'");
            }
            String user = line.substring(0, eq).strip();
            try {
                users.put(user, PasswordHash.parse(line.substring(eq + 1)));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(where + ": password hash of user '" + user + "': " + e.getMessage());
            }
        }
        return new UsersFileAuthenticator(users, allowAnonymous);
    }

    @Override
    public String check(String user, String password) {
        if (user == null || user.isEmpty()) {
            return allowAnonymous ? null : "this node requires a user name and password";
        }
        PasswordHash h = users.get(user);
        boolean known = h != null;
        // The hash is computed whatever is wrong, so every refusal costs the same time.
        boolean matches = (known ? h : stranger)
                .matches(password == null || password.isEmpty() ? new char[] {'-'} : password.toCharArray());
        if (!known || password == null || password.isEmpty() || !matches) {
            return "wrong user name or password"; // never say which
        }
        return null;
    }
}
