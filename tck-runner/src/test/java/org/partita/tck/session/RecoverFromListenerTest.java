package org.partita.tck.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.tck.support.TckTest;

/**
 * Jakarta Messaging 3.1, 6.2.10 and the {@code Session.recover} javadoc: recover called from
 * {@code onMessage} in an auto-acknowledging session redelivers the message being processed, flagged
 * redelivered (3.5.11: {@code JMSXDeliveryCount} incremented).
 */
class RecoverFromListenerTest extends TckTest {

    @ParameterizedTest(name = "acknowledge mode {0}")
    @ValueSource(ints = {Session.AUTO_ACKNOWLEDGE, Session.DUPS_OK_ACKNOWLEDGE})
    @DisplayName(
            "6.2.10 / Session.recover() in onMessage (auto modes): the message comes again with JMSRedelivered=true")
    void recoverInListenerRedeliversTheCurrentMessage(int mode) throws Exception {
        Queue q = queue();
        send(q, "only");
        Connection c = connection();
        Session s = c.createSession(false, mode);
        MessageConsumer consumer = s.createConsumer(q);
        List<String> seen = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        consumer.setMessageListener(m -> {
            try {
                boolean redelivered = m.getJMSRedelivered();
                seen.add(redelivered + "/" + m.getIntProperty("JMSXDeliveryCount"));
                if (!redelivered && seen.size() < 5) {
                    s.recover(); // a listener that recovers until it sees the flag
                } else {
                    done.countDown();
                }
            } catch (JMSException e) {
                seen.add(e.toString());
            }
        });
        c.start();
        assertTrue(done.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS), "the listener saw the flag; it saw " + seen);
        assertEquals(List.of("false/1", "true/2"), seen);
        c.stop();
        consumer.setMessageListener(null);
        c.start();
        Message again = consumer.receive(ABSENCE_TIMEOUT);
        assertFalse(again != null, "the message was acknowledged when the second onMessage returned");
    }
}
