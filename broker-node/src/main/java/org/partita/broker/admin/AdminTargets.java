package org.partita.broker.admin;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The queues an admin command acts on, so that the manage permission is checked on them: the named
 * queue of a queue command, both queues of {@code message.move} (the node when it moves messages back to where
 * they came from), and null (the node as a whole)
 * for commands that read or change more than one queue.
 */
public final class AdminTargets {
    private AdminTargets() {}

    public static List<String> of(String command, String argument) {
        String arg = argument == null ? "" : argument.strip();
        List<String> names = new ArrayList<>();
        switch (command) {
            case "queue.update", "queue.options", "queue.figures", "queue.purge", "queue.delete" ->
                names.add(queueName(arg));
            case "queue.stat", "consumer.list" -> names.add(arg.isEmpty() ? null : arg);
            case "message.move" -> {
                names.add(queueName(arg));
                int q = arg.indexOf('?');
                String to = q < 0 ? null : parameter(arg.substring(q + 1), "to");
                // without 'to' each message goes back to the queue it was sent to: any queue of the node
                names.add(to == null || to.isEmpty() ? null : to);
            }
            default -> names.add(null);
        }
        return names;
    }

    private static String queueName(String arg) {
        int q = arg.indexOf('?');
        return q < 0 ? arg : arg.substring(0, q);
    }

    private static String parameter(String query, String name) {
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0
                    && URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8)
                            .equals(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
