package org.partita.broker.security;

/** Decides whether a connection's user and password are acceptable. */
public interface Authenticator {
    /** @return null when accepted, else the reason shown to the client */
    String check(String user, String password);

    Authenticator ALLOW_ALL = (user, password) -> null;
}
