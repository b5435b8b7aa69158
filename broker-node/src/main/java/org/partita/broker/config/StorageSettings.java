package org.partita.broker.config;

/** How the store reacts to I/O faults and when it gives space back. */
public record StorageSettings() {

    public static StorageSettings defaults() {
        return new StorageSettings();
    }
}
