package org.partita.samples.requestreply;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.Map;

/**
 * The responder: takes quote requests from a shared queue and answers each to the request's
 * {@code JMSReplyTo}, copying its {@code JMSCorrelationID} so the requester can match the answer.
 * Steel takes longer to price than the rest, so answers overtake one another.
 */
final class QuoteService implements AutoCloseable {
    static final Map<String, Integer> CENTS_PER_KG = Map.of("steel", 92, "copper", 871, "resin", 154, "paper", 48);

    private final Connection connection;

    QuoteService(String name, ConnectionFactory factory, Queue requests) throws JMSException {
        connection = factory.createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer replies = session.createProducer(null); // each reply goes where its request asks
        session.createConsumer(requests).setMessageListener(request -> {
            try {
                String product = request.getBody(String.class);
                Thread.sleep(product.equals("steel") ? 150 : 10);
                TextMessage reply = session.createTextMessage(String.valueOf(CENTS_PER_KG.get(product)));
                reply.setJMSCorrelationID(request.getJMSCorrelationID());
                reply.setStringProperty("quotedBy", name);
                replies.send(request.getJMSReplyTo(), reply);
            } catch (JMSException e) {
                throw new RuntimeException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeException(e);
            }
        });
        connection.start();
    }

    /** The price in a reply. */
    static int cents(Message reply) throws JMSException {
        return Integer.parseInt(reply.getBody(String.class));
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }
}
