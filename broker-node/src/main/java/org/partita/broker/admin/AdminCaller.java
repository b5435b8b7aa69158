package org.partita.broker.admin;

/**
 * Who runs an admin command, for the operator log.
 *
 * @param user   the authenticated user name, or null for an anonymous connection
 * @param remote the caller's address, as {@code host:port}
 */
public record AdminCaller(String user, String remote) {
    public static final AdminCaller LOCAL = new AdminCaller(null, "local");

    public String userOrAnonymous() {
        return user == null ? "(anonymous)" : user;
    }
}
