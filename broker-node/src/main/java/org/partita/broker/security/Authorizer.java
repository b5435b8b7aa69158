package org.partita.broker.security;

/** Decides whether a user may perform an operation on a destination. */
public interface Authorizer {
    /**
     * @param user        the authenticated user, or null for an anonymous connection
     * @param destination the destination's plain name (a queue, a topic, a client id for
     *                    {@link Operation#CLIENT_ID}), or null for the node as a whole (node-wide admin commands)
     */
    boolean permits(String user, Operation operation, String destination);

    /** A node without a users file: everyone may do everything (admin from loopback only, see the network front). */
    Authorizer ALLOW_ALL = (user, operation, destination) -> true;

    /** A users file without a roles file: every user may do everything except admin commands, which need a role. */
    Authorizer ALL_BUT_MANAGE = (user, operation, destination) -> operation != Operation.MANAGE;
}
