package org.partita.broker.config;

/** A config file or option is wrong; the message names the file, line and field. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
