package org.partita.jms.client;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageListener;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;

/**
 * The simplified API's consumer: a {@link PartitaMessageConsumer} of the context's session whose methods throw
 * unchecked exceptions, plus {@code receiveBody}.
 */
public class PartitaJMSConsumer implements JMSConsumer {
    private final PartitaMessageConsumer consumer;

    PartitaJMSConsumer(PartitaMessageConsumer consumer) {
        this.consumer = consumer;
    }

    /** The consumer underneath, with Partita's controls (priority, capacity, partitions). */
    public org.partita.jms.api.PartitaConsumer partitaConsumer() {
        return consumer;
    }

    @Override
    public String getMessageSelector() {
        try {
            return consumer.getMessageSelector();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public MessageListener getMessageListener() {
        try {
            return consumer.getMessageListener();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void setMessageListener(MessageListener listener) {
        try {
            consumer.setMessageListener(listener);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public Message receive() {
        try {
            return consumer.receive();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public Message receive(long timeout) {
        try {
            return consumer.receive(timeout);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public Message receiveNoWait() {
        try {
            return consumer.receiveNoWait();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void close() {
        try {
            consumer.close();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public <T> T receiveBody(Class<T> c) {
        return receiveBodyWithin(c, 0);
    }

    @Override
    public <T> T receiveBody(Class<T> c, long timeout) {
        return receiveBodyWithin(c, timeout <= 0 ? 0 : timeout);
    }

    @Override
    public <T> T receiveBodyNoWait(Class<T> c) {
        return receiveBodyWithin(c, -1);
    }

    /** {@code timeout}: 0 waits forever, negative does not wait (see PartitaMessageConsumer#receive(long, Unwrap)). */
    private <T> T receiveBodyWithin(Class<T> c, long timeout) {
        try {
            return consumer.receiveBody(c, timeout);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    /**
     * The body as {@code c}, per the receiveBody javadoc: only text, map, bytes and object messages qualify, the
     * body must be assignable to {@code c}, must be present, and an object must deserialize. Anything else is a
     * MessageFormatException (which the consumer turns into a "not received" or a "received" by session mode).
     */
    static <T> T bodyOf(Message m, Class<T> c) throws JMSException {
        if (m instanceof StreamMessage
                || !(m instanceof TextMessage
                        || m instanceof MapMessage
                        || m instanceof BytesMessage
                        || m instanceof ObjectMessage)) {
            throw new MessageFormatException("receiveBody cannot return the body of a " + kind(m)
                    + "; only text, map, bytes and object messages have one; use receive()");
        }
        T body = m.getBody(c);
        if (body == null) {
            throw new MessageFormatException("the " + kind(m) + " has no body; use receive() for messages without one");
        }
        return body;
    }

    private static String kind(Message m) {
        if (m instanceof StreamMessage) {
            return "StreamMessage";
        }
        if (m instanceof TextMessage) {
            return "TextMessage";
        }
        if (m instanceof MapMessage) {
            return "MapMessage";
        }
        if (m instanceof BytesMessage) {
            return "BytesMessage";
        }
        if (m instanceof ObjectMessage) {
            return "ObjectMessage";
        }
        return "Message";
    }
}
