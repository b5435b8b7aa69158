package org.partita.broker.security;

/** Decides whether a connection's user and password are acceptable. */
public interface Authenticator {
    /** @return null when accepted, else the reason shown to the client */
    String check(String user, String password);

    /**
     * Whether {@link #check} costs real time (a password hash), so that callers run it away from
     * network threads and delay repeated failures.
     */
    default boolean checksPasswords() {
        return true;
    }

    /** A node without a users file: every connection is accepted, credentials are ignored. */
    Authenticator ALLOW_ALL = new Authenticator() {
        @Override
        public String check(String user, String password) {
            return null;
        }

        @Override
        public boolean checksPasswords() {
            return false;
        }
    };
}
