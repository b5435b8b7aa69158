package org.partita.broker.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.partita.broker.http.Responses;

/** {@code GET /metrics}: the Prometheus text exposition. */
public final class ScrapeHandler implements HttpHandler {
    private final NodeMetrics metrics;

    public ScrapeHandler(NodeMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        if (Responses.refuseUnlessGet(exchange)) {
            return;
        }
        if (!exchange.getRequestURI().getPath().equals("/metrics")) {
            Responses.text(exchange, 404, "not found\n");
            return;
        }
        Responses.send(
                exchange,
                200,
                "text/plain; version=0.0.4; charset=utf-8",
                metrics.scrape().getBytes(StandardCharsets.UTF_8));
    }
}
