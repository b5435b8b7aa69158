package org.partita.ra;

import jakarta.jms.IllegalStateException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.QueueReceiver;
import jakarta.jms.TopicSubscriber;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.partita.jms.api.PartitaConsumer;

/** A consumer of a pooled connection's session: everything but a message listener (Jakarta Messaging 12.2). */
final class ConsumerHandle {
    private ConsumerHandle() {}

    static MessageConsumer wrap(MessageConsumer consumer) {
        List<Class<?>> types = new ArrayList<>();
        if (consumer instanceof QueueReceiver && consumer instanceof TopicSubscriber) {
            types.add(QueueReceiver.class);
            types.add(TopicSubscriber.class);
        } else {
            types.add(MessageConsumer.class);
        }
        if (consumer instanceof PartitaConsumer) {
            types.add(PartitaConsumer.class); // Partita's own controls, and receiveBody for the adapter's JMSContext
        }
        return (MessageConsumer) Proxy.newProxyInstance(
                ConsumerHandle.class.getClassLoader(), types.toArray(Class<?>[]::new), (self, method, args) -> {
                    switch (method.getName()) {
                        case "setMessageListener" -> {
                            if (args[0] != null) {
                                throw new IllegalStateException(
                                        "setMessageListener is not allowed in a Jakarta EE web or EJB"
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
