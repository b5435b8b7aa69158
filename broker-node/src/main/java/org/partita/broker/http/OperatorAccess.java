package org.partita.broker.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpPrincipal;
import java.net.InetSocketAddress;
import org.partita.broker.security.Authorizer;
import org.partita.broker.security.Operation;

/**
 * Who may read the operator's HTTP port (the figures of every queue, consumer and connection):
 * the rule of the node's node-wide admin commands. With users, an authenticated user needs
 * {@code manage} on {@code >}; without a users file the node knows no one, so only its own machine
 * (loopback) is served. It wraps each handler, which the server calls after the port's
 * authentication (filters run before it), so the principal is known; a refusal is a 403 with one
 * line saying why.
 */
abstract class OperatorAccess {

    /** Null when the request may be served, else why not. */
    abstract String refusal(HttpExchange exchange);

    static OperatorAccess managers(Authorizer authorizer) {
        return new OperatorAccess() {
            @Override
            String refusal(HttpExchange exchange) {
                HttpPrincipal who = exchange.getPrincipal();
                String user = who == null ? null : who.getUsername();
                return authorizer.permits(user, Operation.MANAGE, null)
                        ? null
                        : "user '" + user + "' may not read the node's figures (permission manage on >)";
            }
        };
    }

    static OperatorAccess loopbackOnly() {
        return new OperatorAccess() {
            @Override
            String refusal(HttpExchange exchange) {
                InetSocketAddress a = exchange.getRemoteAddress();
                return a != null && a.getAddress() != null && a.getAddress().isLoopbackAddress()
                        ? null
                        : "a node without a users file serves its console and metrics to its own machine only";
            }
        };
    }

    /** {@code handler}, for those let in. */
    HttpHandler guard(HttpHandler handler) {
        return exchange -> {
            String why = refusal(exchange);
            if (why == null) {
                handler.handle(exchange);
            } else {
                Responses.text(exchange, 403, "forbidden: " + why + "\n");
            }
        };
    }
}
