package org.partita.broker.config;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Authorization (roles and permissions) and TLS for client connections and node links.
 *
 * @param rolesFile the roles file (docs/security.md); null means {@code roles.properties} beside
 *                  the users file if there is one there
 * @param tls       TLS of the port and of node links; null for plain TCP
 */
public record SecuritySettings(Path rolesFile, TlsSettings tls) {
    /** The roles file a node finds beside its users file when none is named. */
    public static final String DEFAULT_ROLES_FILE = "roles.properties";

    public static SecuritySettings defaults() {
        return new SecuritySettings(null, null);
    }

    public SecuritySettings withRolesFile(Path f) {
        return new SecuritySettings(f, tls);
    }

    public SecuritySettings withTls(TlsSettings t) {
        return new SecuritySettings(rolesFile, t);
    }

    /** The roles file in effect for a node with {@code usersFile}, or null when users may do everything but admin. */
    public Path rolesIn(Path usersFile) {
        if (rolesFile != null) {
            return rolesFile;
        }
        if (usersFile == null) {
            return null;
        }
        Path beside = usersFile.toAbsolutePath().resolveSibling(DEFAULT_ROLES_FILE);
        return Files.isRegularFile(beside) ? beside : null;
    }
}
