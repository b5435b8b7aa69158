package org.partita.cli;

import java.util.ArrayList;
import java.util.List;
import org.partita.jms.api.PartitaAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code partita dlq list|move}: dead letters, and sending them back. */
@Command(
        name = "dlq",
        description = "Dead-letter queue: list its messages, move them back to their queue.",
        subcommands = {DlqCommand.ListDead.class, DlqCommand.Move.class})
final class DlqCommand {
    static final String DEFAULT_DLQ = "DLQ";

    @Command(
            name = "list",
            description = "Messages in a dead-letter queue: the queue each came from, the deliveries it"
                    + " had there, why and when it was dead-lettered, and the destination it was sent to.")
    static final class ListDead extends NodeCommand {
        @Option(
                names = "--queue",
                defaultValue = "DLQ",
                description = "the dead-letter queue (default ${DEFAULT-VALUE})")
        String queue;

        @Option(
                names = "--limit",
                defaultValue = "50",
                description = "the most messages shown (default ${DEFAULT-VALUE})")
        int limit;

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            List<java.util.Map<String, Object>> dead;
            try {
                dead = QueueCommand.browse(s, queue, null, limit, true);
            } catch (jakarta.jms.InvalidDestinationException e) {
                if (!DEFAULT_DLQ.equals(queue)) {
                    throw e;
                }
                dead = List.of(); // the node makes its default dead-letter queue with the first dead letter
            }
            out.table(
                    dead,
                    Output.columns(
                            "MESSAGE ID",
                            "messageId",
                            "FROM",
                            DeadLetterFields.ORIGINAL_DESTINATION,
                            "DELIVERIES",
                            DeadLetterFields.DELIVERY_COUNT,
                            "REASON",
                            DeadLetterFields.REASON,
                            "DEAD-LETTERED AT",
                            DeadLetterFields.DEAD_LETTERED_AT,
                            "SENT TO",
                            "destination",
                            "TIMESTAMP",
                            "timestamp",
                            "GROUP",
                            "group",
                            "BODY",
                            "body"),
                    "no messages in " + queue);
        }
    }

    @Command(
            name = "move",
            description = "Moves dead letters back to the queue each was sent to (or to --to). "
                    + "Without message ids, moves them all.")
    static final class Move extends NodeCommand {
        @Option(
                names = "--queue",
                defaultValue = "DLQ",
                description = "the dead-letter queue (default ${DEFAULT-VALUE})")
        String queue;

        @Option(names = "--to", description = "the queue to move them to, instead of the one each was sent to")
        String to;

        @Parameters(paramLabel = "MESSAGE_ID", arity = "0..*", description = "JMSMessageIDs to move (default: all)")
        List<String> ids = new ArrayList<>();

        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            PartitaAdmin.Moved moved = s.admin().moveMessages(queue, to, ids);
            String where = to == null ? "back to their queues" : "to " + to;
            out.done(
                    "moved " + moved.moved() + " messages from " + queue + " " + where
                            + (moved.left() > 0
                                    ? "; " + moved.left() + " stayed (their queue is gone, or they were sent"
                                            + " to a topic or a fan-out queue: move them with --to)"
                                    : ""),
                    Output.map("moved", moved.moved(), "left", moved.left()));
            if (moved.left() > 0 && moved.moved() == 0) {
                throw new ExitCodes.Refusal(
                        ExitCodes.REFUSED, moved.left() + " messages could not be moved back; name a queue with --to");
            }
        }
    }
}
