package org.partita.ra.context;

import jakarta.jms.JMSConsumer;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import org.partita.jms.api.PartitaConsumer;

/**
 * The consumer of a {@link ContainerJMSContext}: a consumer of its session (which refuses message
 * listeners in a container), unchecked. {@code receiveBody} keeps its rule through
 * {@link PartitaConsumer#receiveBody}: a message whose body cannot be returned as asked stays for
 * the next receive in the auto-acknowledge modes.
 */
final class ContainerJMSConsumer implements JMSConsumer {
    private final ContainerJMSContext context;
    private final MessageConsumer consumer;

    ContainerJMSConsumer(ContainerJMSContext context, MessageConsumer consumer) {
        this.context = context;
        this.consumer = consumer;
    }

    @Override
    public String getMessageSelector() {
        return Unchecked.call(consumer::getMessageSelector);
    }

    @Override
    public MessageListener getMessageListener() {
        return Unchecked.call(consumer::getMessageListener);
    }

    @Override
    public void setMessageListener(MessageListener listener) {
        Unchecked.run(() -> consumer.setMessageListener(listener));
    }

    @Override
    public Message receive() {
        return received(Unchecked.call(consumer::receive));
    }

    @Override
    public Message receive(long timeout) {
        return received(Unchecked.call(() -> consumer.receive(timeout)));
    }

    @Override
    public Message receiveNoWait() {
        return received(Unchecked.call(consumer::receiveNoWait));
    }

    private Message received(Message m) {
        context.received(m);
        return m;
    }

    @Override
    public void close() {
        Unchecked.run(consumer::close);
    }

    @Override
    public <T> T receiveBody(Class<T> c) {
        return receiveBodyWithin(c, 0);
    }

    @Override
    public <T> T receiveBody(Class<T> c, long timeout) {
        return receiveBodyWithin(c, Math.max(timeout, 0));
    }

    @Override
    public <T> T receiveBodyNoWait(Class<T> c) {
        return receiveBodyWithin(c, -1);
    }

    /** {@code timeout}: 0 waits for ever, negative does not wait. */
    private <T> T receiveBodyWithin(Class<T> c, long timeout) {
        if (!(consumer instanceof PartitaConsumer partita)) {
            throw new IllegalStateException("not a consumer of a Partita session: " + consumer);
        }
        return Unchecked.call(() -> partita.receiveBody(c, timeout));
    }
}
