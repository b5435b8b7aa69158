package org.partita.broker.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.partita.broker.http.Responses;

/** The console's page, script and style, served from the node's jar. */
public final class ConsoleResources implements HttpHandler {
    private static final Map<String, String> FILES = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/console.js", "console.js",
            "/console.css", "console.css");

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        if (Responses.refuseUnlessGet(exchange)) {
            return;
        }
        String file = FILES.get(exchange.getRequestURI().getPath());
        if (file == null) {
            Responses.text(exchange, 404, "not found\n");
            return;
        }
        byte[] body;
        try (InputStream in = ConsoleResources.class.getResourceAsStream(file)) {
            if (in == null) {
                Responses.text(exchange, 500, "the console file " + file + " is missing from the node's jar\n");
                return;
            }
            body = in.readAllBytes();
        }
        String type = file.endsWith(".html")
                ? "text/html; charset=utf-8"
                : file.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
        Responses.send(exchange, 200, type, body);
    }
}
