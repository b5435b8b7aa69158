package org.partita.broker.it.context;

import jakarta.jms.JMSConsumer;
import jakarta.jms.Message;
import java.util.ArrayList;
import java.util.List;

/** Small helpers shared by the JMSContext tests. */
final class Wait {
    /** Long enough for a message that is there to arrive on a loaded build machine. */
    static final long ARRIVES = 10_000;
    /** Long enough to be fairly sure that a message that should not come does not. */
    static final long ABSENT = 300;
    /** The quiet time after which {@link #drain} decides that nothing more is coming. */
    static final long QUIET = 750;

    private Wait() {}

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
