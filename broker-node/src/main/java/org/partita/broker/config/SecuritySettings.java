package org.partita.broker.config;

/** Authorization (roles and permissions) and TLS for client connections and node links. */
public record SecuritySettings() {

    public static SecuritySettings defaults() {
        return new SecuritySettings();
    }
}
