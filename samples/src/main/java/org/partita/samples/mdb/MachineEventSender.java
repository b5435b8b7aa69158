package org.partita.samples.mdb;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The machines' side of the message-driven bean sample: sends {@code --events} numbered events for
 * each of {@code --machines} machines to {@code machine-events}, keyed by machine, then reads the
 * deployed sample's ledger until every event is applied and checks that none came out of order.
 *
 * <pre>
 * java -cp samples/target/partita-samples.jar org.partita.samples.mdb.MachineEventSender \
 *     --url tcp://127.0.0.1:61700 --ledger http://127.0.0.1:8080/partita-mdb-sample/ledger
 * </pre>
 * Exit status 0 when every check holds, 1 when one fails, 2 for a bad option.
 */
public final class MachineEventSender {

    private MachineEventSender() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of(
                "--url",
                "tcp://127.0.0.1:61700",
                "--machines",
                "120",
                "--events",
                "20",
                "--ledger",
                "http://127.0.0.1:8080/partita-mdb-sample/ledger",
                "--wait",
                "60"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!options.containsKey(args[i])) {
                System.err.println("unknown option " + args[i] + "; known: " + options.keySet());
                System.exit(2);
            }
            options.put(args[i], args[i + 1]);
        }
        boolean ok = run(
                options.get("--url"),
                Integer.parseInt(options.get("--machines")),
                Integer.parseInt(options.get("--events")),
                URI.create(options.get("--ledger")),
                Long.parseLong(options.get("--wait")) * 1000);
        System.exit(ok ? 0 : 1);
    }

    /** Sends, then checks the ledger; true when every event was applied once and in order. */
    public static boolean run(String url, int machines, int events, URI ledger, long waitMillis)
            throws JMSException, IOException, InterruptedException {
        try (Connection c = new PartitaConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("machine-events?partitions=8"));
            for (int e = 0; e < events; e++) {
                for (int m = 0; m < machines; m++) {
                    TextMessage message = s.createTextMessage(Integer.toString(e));
                    message.setStringProperty("JMSXGroupID", String.format("m-%03d", m));
                    p.send(message);
                }
            }
        }
        System.out.println("sent " + events + " events for each of " + machines + " machines");
        long deadline = System.currentTimeMillis() + waitMillis;
        Map<String, String> figures = Map.of();
        HttpClient http = HttpClient.newHttpClient();
        while (System.currentTimeMillis() < deadline) {
            figures = read(http.send(HttpRequest.newBuilder(ledger).build(), HttpResponse.BodyHandlers.ofString())
                    .body());
            if (Long.parseLong(figures.getOrDefault("events", "0")) >= (long) machines * events) {
                break;
            }
            Thread.sleep(200); // polling a figure that only grows; the deadline bounds it
        }
        System.out.println(
                "the bean applied " + figures.get("events") + " events of " + figures.get("machines") + " machines on "
                        + figures.get("instances") + " instances, " + figures.get("outOfOrder") + " out of order");
        boolean all = Long.parseLong(figures.getOrDefault("events", "0")) == (long) machines * events;
        boolean ordered = "0".equals(figures.get("outOfOrder"));
        System.out.println((all ? "PASS" : "FAIL") + " every event applied once");
        System.out.println((ordered ? "PASS" : "FAIL") + " every machine's events in order");
        return all && ordered;
    }

    private static Map<String, String> read(String body) {
        Map<String, String> out = new HashMap<>();
        for (String line : body.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                out.put(line.substring(0, eq), line.substring(eq + 1).trim());
            }
        }
        return out;
    }
}
