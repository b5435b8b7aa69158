package org.partita.broker.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writing an HTTP answer in one go. */
public final class Responses {
    private Responses() {}

    public static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    public static void text(HttpExchange exchange, int status, String text) throws IOException {
        send(exchange, status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    /** Only GET (and HEAD) read anything here: the console is read-only. */
    public static boolean refuseUnlessGet(HttpExchange exchange) throws IOException {
        String m = exchange.getRequestMethod();
        if (m.equals("GET") || m.equals("HEAD")) {
            return false;
        }
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        text(exchange, 405, "method " + m + " is not allowed: this endpoint is read-only\n");
        return true;
    }
}
