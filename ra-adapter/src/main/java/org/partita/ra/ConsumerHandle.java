package org.partita.ra;

import jakarta.jms.IllegalStateException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.QueueReceiver;
import jakarta.jms.TopicSubscriber;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/** A consumer of a pooled connection's session: everything but a message listener (Jakarta Messaging 12.2). */
final class ConsumerHandle {
    private ConsumerHandle() {
    }

    static MessageConsumer wrap(MessageConsumer consumer) {
        Class<?>[] types = consumer instanceof QueueReceiver && consumer instanceof TopicSubscriber
                ? new Class<?>[] {QueueReceiver.class, TopicSubscriber.class}
                : new Class<?>[] {MessageConsumer.class};
        return (MessageConsumer) Proxy.newProxyInstance(ConsumerHandle.class.getClassLoader(), types, (self, method, args) -> {
            switch (method.getName()) {
                case "setMessageListener" -> {
                    if (args[0] != null) {
                        throw new IllegalStateException("setMessageListener is not allowed in a Jakarta EE web or EJB"
                                + " container (Jakarta Messaging 12.2); use a message-driven bean");
                    }
                    return null;
                }
                case "equals" -> {
                    return self == args[0];
                }
                case "hashCode" -> {
                    return System.identityHashCode(self);
                }
                default -> {
                    try {
                        return method.invoke(consumer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }
            }
        });
    }
}
