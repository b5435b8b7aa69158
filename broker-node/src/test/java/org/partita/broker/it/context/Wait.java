package org.partita.broker.it.context;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.jms.Destination;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Small helpers shared by the JMSContext tests. */
final class Wait {
    /** Long enough for a message that is there to arrive on a loaded build machine. */
    static final long ARRIVES = 10_000;
    /** Long enough to be fairly sure that a message that should not come does not. */
    static final long ABSENT = 300;
    /** The quiet time after which {@link #drain} decides that nothing more is coming. */
    static final long QUIET = 750;

    private Wait() {}

    /**
     * Sends a sentinel to {@code destination} through {@code ctx} (committed when it is transacted), at
     * the lowest priority, and asserts that it is the next message {@code consumer} receives: nothing
     * was waiting ahead of it.
     */
    static void assertNothingAhead(JMSContext ctx, Destination destination, JMSConsumer consumer, String why) {
        String sentinel = "sentinel-" + UUID.randomUUID();
        ctx.createProducer().setPriority(0).send(destination, sentinel);
        if (ctx.getTransacted()) {
            ctx.commit();
        }
        assertEquals(sentinel, consumer.receiveBody(String.class, ARRIVES), why);
    }

    /** Receives until nothing more comes within {@link #QUIET}. */
    static List<Message> drain(JMSConsumer consumer) {
        List<Message> all = new ArrayList<>();
        Message m;
        while ((m = consumer.receive(QUIET)) != null) {
            all.add(m);
        }
        return all;
    }
}
