package org.partita.cli;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.api.QueueStats;

/** The admin API's figures as rows for {@link Output}; a figure not measured is left out. */
final class Figures {
    private Figures() {}

    static Map<String, Object> queue(QueueStats q) {
        Map<String, Object> m = Output.map(
                "name",
                q.name(),
                "mode",
                q.mode(),
                "partitions",
                q.partitions(),
                "durable",
                q.durable(),
                "depth",
                q.depth(),
                "inFlight",
                q.inFlight(),
                "heldBytes",
                q.heldBytes(),
                "consumers",
                q.consumers());
        putAge(m, q.oldestAgeMillis());
        m.put("enqueued", q.enqueued());
        m.put("delivered", q.delivered());
        m.put("acknowledged", q.acknowledged());
        m.put("redelivered", q.redelivered());
        m.put("deadLettered", q.deadLettered());
        m.put("expired", q.expired());
        m.put("handoffs", q.handoffs());
        m.put("ratePerSecond", rate(q.ratePerSecond()));
        return m;
    }

    static Map<String, Object> partition(PartitaAdmin.Partition p) {
        Map<String, Object> m = Output.map(
                "partition",
                p.partition(),
                "state",
                p.state(),
                "owner",
                p.owner(),
                "depth",
                p.depth(),
                "inFlight",
                p.inFlight());
        putAge(m, p.oldestAgeMillis());
        m.put("ratePerSecond", rate(p.ratePerSecond()));
        m.put("enqueued", p.enqueued());
        m.put("delivered", p.delivered());
        m.put("acknowledged", p.acknowledged());
        m.put("redelivered", p.redelivered());
        m.put("deadLettered", p.deadLettered());
        m.put("handoffs", p.handoffs());
        m.put("hot", p.hot());
        return m;
    }

    private static void putAge(Map<String, Object> m, OptionalLong age) {
        if (age.isPresent()) {
            m.put("oldestAgeMillis", age.getAsLong());
        }
    }

    /** Two decimals, as a number. */
    static double rate(double perSecond) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.2f", perSecond));
    }
}
