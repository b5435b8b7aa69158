package org.partita.ra;

import java.util.Objects;

/**
 * Who connects where: a node URL and credentials. A managed connection is made for one and matched
 * by it, so a pool never hands one application's credentials to another.
 */
public record ConnectionSettings(String url, String user, String password)
        implements jakarta.resource.spi.ConnectionRequestInfo {

    public ConnectionSettings {
        Objects.requireNonNull(url, "url");
    }

    @Override
    public String toString() {
        return "ConnectionSettings[" + url + ", user " + (user == null ? "(none)" : user) + "]";
    }
}
