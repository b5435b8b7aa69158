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

    private Wait() {
    }

    /** Receives until nothing more comes within {@link #ABSENT}. */
    static List<Message> drain(JMSConsumer consumer) {
        List<Message> all = new ArrayList<>();
        Message m;
        while ((m = consumer.receive(ABSENT)) != null) {
            all.add(m);
        }
        return all;
    }
}
