package org.partita.jms.transport;

/** What a handshake sends: credentials and the client id (null when the connection has none). */
public record Login(String user, String password, String clientId) {

    /** The same login with the client id the application set after connecting. */
    public Login withClientId(String id) {
        return new Login(user, password, id);
    }
}
