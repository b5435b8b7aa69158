package org.partita.broker.admin;

/**
 * Who runs an admin command, for the operator log.
 *
 * @param user   the authenticated user name, or null for an anonymous connection
 * @param remote the caller's address, as {@code host:port}
 */
public record AdminCaller(String user, String remote) {
    public static final AdminCaller LOCAL = new AdminCaller(null, "local");
    /** An operation of the node's JMX bean: who called it is the JVM's JMX security's business, not Partita's. */
    public static final AdminCaller JMX = new AdminCaller(null, "jmx");

    public String userOrAnonymous() {
        return user == null ? "(anonymous)" : user;
    }
}
