package org.partita.broker.core.topic;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** What a durable subscription is, as saved with its queue: topic pattern, selector, noLocal, shared. */
record SubscriptionDefinition(String topic, String selector, boolean noLocal, boolean shared) {

    String format() {
        return "topic=" + enc(topic) + "&selector=" + enc(selector == null ? "" : selector) + "&noLocal=" + noLocal
                + "&shared=" + shared;
    }

    static SubscriptionDefinition parse(String text) {
        Map<String, String> m = new HashMap<>();
        for (String pair : text.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                m.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        String selector = m.getOrDefault("selector", "");
        return new SubscriptionDefinition(
                m.get("topic"),
                selector.isEmpty() ? null : selector,
                Boolean.parseBoolean(m.get("noLocal")),
                Boolean.parseBoolean(m.get("shared")));
    }

    boolean sameAs(String otherTopic, String otherSelector, boolean otherNoLocal) {
        return topic.equals(otherTopic)
                && java.util.Objects.equals(blankToNull(selector), blankToNull(otherSelector))
                && noLocal == otherNoLocal;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
