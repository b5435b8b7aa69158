package org.partita.broker.network.connection;

import org.partita.broker.security.Authorizer;
import org.partita.broker.security.Operation;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.ProtocolException;

/**
 * What one connection may do: its user's permissions, checked before each operation so that a
 * refused one changes nothing. A refusal is a {@code NOT_AUTHORIZED} error naming the operation and
 * the destination, which the client raises as {@code JMSSecurityException}. A node link (another
 * member that presented the cluster's secret) is not a user and is not checked.
 */
final class Access {
    /** Before login, and for node links: nothing is checked here. */
    static final Access UNCHECKED = new Access(null, Authorizer.ALLOW_ALL);

    /** Answers kept per operation and name: a producer sends to the same few names over and over. */
    private static final int REMEMBERED = 1024;

    private final String user;
    private final Authorizer authorizer;
    private final java.util.Map<Operation, java.util.Map<String, Boolean>> answers =
            new java.util.EnumMap<>(Operation.class);

    Access(String user, Authorizer authorizer) {
        this.user = user;
        this.authorizer = authorizer;
    }

    /**
     * @param kind what the name is ("queue", "topic", "client id"), for the message
     * @param name the plain name, or null for the node as a whole
     */
    void require(Operation operation, String kind, String name) {
        if (!permits(operation, name)) {
            throw refusal(operation, kind, name);
        }
    }

    private boolean permits(Operation operation, String name) {
        if (this == UNCHECKED || name == null) {
            return authorizer.permits(user, operation, name);
        }
        synchronized (answers) { // the connection's event loop, almost always: never contended
            java.util.Map<String, Boolean> known = answers.computeIfAbsent(operation, o -> new java.util.HashMap<>());
            Boolean answer = known.get(name);
            if (answer == null) {
                if (known.size() >= REMEMBERED) {
                    known.clear();
                }
                answer = authorizer.permits(user, operation, name);
                known.put(name, answer);
            }
            return answer;
        }
    }

    ProtocolException refusal(Operation operation, String kind, String name) {
        String who = user == null ? "an anonymous connection" : "user '" + user + "'";
        String what = name == null ? "this node" : kind + " '" + name + "'";
        return new ProtocolException(
                ErrorCode.NOT_AUTHORIZED,
                "not authorized: " + who + " may not " + operation.verb() + " " + what + " (permission "
                        + operation.word() + ")");
    }
}
