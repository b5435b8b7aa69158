package org.partita.jms.api;

import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.partita.jms.destination.PartitaQueue;

/**
 * Builds destination names with options (grammar in docs/destinations.md):
 * {@code name?option=value&option=value}. Queue options apply when the queue is created on first
 * use; consumer options ({@code priority}, {@code appId}, {@code capacity}, {@code capacityBytes})
 * apply to the consumer created with the name.
 *
 * <pre>{@code
 * Queue billing = PartitaDestinations.forApp(session.createQueue("orders"), "billing"); // orders?appId=billing
 * Queue primary = PartitaDestinations.withOption(session.createQueue("jobs"), "priority", "10");
 * }</pre>
 */
public final class PartitaDestinations {
    private PartitaDestinations() {}

    /** The same queue, read as AppId {@code appId} of a fan-out queue. */
    public static Queue forApp(Queue queue, String appId) throws JMSException {
        return withOption(queue, "appId", appId);
    }

    /** The same queue with one more option in its name. */
    public static Queue withOption(Queue queue, String option, String value) throws JMSException {
        String name = queue.getQueueName();
        String sep = name.contains("?") ? "&" : "?";
        return new PartitaQueue(name + sep + enc(option) + "=" + enc(value));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
