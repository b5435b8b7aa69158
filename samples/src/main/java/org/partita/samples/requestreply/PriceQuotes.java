package org.partita.samples.requestreply;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.naming.Context;
import javax.naming.InitialContext;
import org.partita.samples.support.Sample;
import org.partita.samples.support.SampleNode;
import org.partita.samples.support.SampleQueues;
import org.partita.samples.support.Story;
import org.partita.samples.support.Verdict;
import org.partita.samples.support.Waiting;
import picocli.CommandLine.Command;

/**
 * Request and reply: a requester sends quote requests to {@code quote-requests}, each naming a
 * temporary queue as {@code JMSReplyTo} and carrying its own {@code JMSCorrelationID}; two
 * instances of a quote service answer. The answers arrive in another order than the requests,
 * and the correlation id tells which request each one answers. The temporary queue goes away with
 * the requester's connection.
 */
@Command(name = "price-quotes", description = "Request and reply with a temporary queue and JMSCorrelationID")
public final class PriceQuotes extends Sample {
    private static final List<String> ASKED =
            List.of("steel", "copper", "resin", "paper", "steel", "copper", "resin", "paper");
    private static final long REPLY_WAIT_MILLIS = 10_000;

    public static void main(String[] args) {
        exit(new PriceQuotes(), args);
    }

    @Override
    protected Verdict run(SampleNode node, Story story) throws Exception {
        Hashtable<String, Object> env = node.jndiEnvironment();
        env.put("queue.quoteRequests", "quote-requests");
        Context jndi = new InitialContext(env);
        ConnectionFactory factory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        Queue requests = (Queue) jndi.lookup("quoteRequests");
        try (SampleQueues queues = SampleQueues.on(factory)) {
            queues.own("quote-requests"); // a plain queue, created when first named
            List<QuoteService> services = List.of(
                    new QuoteService("quotes-A", factory, requests), new QuoteService("quotes-B", factory, requests));
            story.say("two instances of the quote service listen on quote-requests");

            story.part("The requester asks for " + ASKED.size() + " quotes at once");
            Map<String, String> pending = new LinkedHashMap<>(); // correlation id -> product asked
            Map<String, Message> answered = new LinkedHashMap<>();
            int unmatched = 0;
            String replyQueue;
            try (Connection connection = factory.createConnection()) {
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                TemporaryQueue replies = session.createTemporaryQueue();
                replyQueue = replies.getQueueName();
                MessageConsumer answers = session.createConsumer(replies);
                connection.start();
                MessageProducer asker = session.createProducer(requests);
                for (int i = 0; i < ASKED.size(); i++) {
                    TextMessage request = session.createTextMessage(ASKED.get(i));
                    request.setJMSReplyTo(replies);
                    request.setJMSCorrelationID("quote-" + (i + 1));
                    asker.send(request);
                    pending.put(request.getJMSCorrelationID(), ASKED.get(i));
                }
                story.say("sent quote-1 to quote-%d, all replying to the temporary queue %s", ASKED.size(), replyQueue);

                Message reply;
                while (answered.size() + unmatched < ASKED.size()
                        && (reply = answers.receive(REPLY_WAIT_MILLIS)) != null) {
                    String id = reply.getJMSCorrelationID();
                    if (!pending.containsKey(id) || answered.containsKey(id)) {
                        unmatched++;
                        story.say("a reply nobody asked for: %s", id);
                        continue;
                    }
                    answered.put(id, reply);
                    story.say(
                            "%-8s answers %s (%s): %d cents/kg",
                            reply.getStringProperty("quotedBy"), id, pending.get(id), QuoteService.cents(reply));
                }
            }
            for (QuoteService service : services) {
                service.close();
            }
            story.part("The requester closes its connection");
            boolean tempGone = Waiting.until(Duration.ofSeconds(10), () -> !listed(queues, replyQueue));
            story.say("temporary queue %s %s", replyQueue, tempGone ? "is gone" : "is still there");

            List<String> wrongPrice = new ArrayList<>();
            for (Map.Entry<String, Message> e : answered.entrySet()) {
                if (QuoteService.cents(e.getValue()) != QuoteService.CENTS_PER_KG.get(pending.get(e.getKey()))) {
                    wrongPrice.add(e.getKey());
                }
            }
            return new Verdict()
                    .check(
                            "every request got exactly one reply",
                            answered.keySet().equals(pending.keySet()) && unmatched == 0,
                            answered.size() + " of " + pending.size() + " answered, " + unmatched
                                    + " unmatched replies")
                    .check(
                            "the correlation id matched each reply to its request",
                            wrongPrice.isEmpty(),
                            wrongPrice.isEmpty()
                                    ? "each price is the product's asked"
                                    : "wrong product priced for " + wrongPrice)
                    .check("the temporary reply queue went away with the requester's connection", tempGone, replyQueue);
        } finally {
            jndi.close();
        }
    }

    private static boolean listed(SampleQueues queues, String name) {
        try {
            return queues.queues().contains(name);
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException("cannot list the node's queues", e);
        }
    }
}
