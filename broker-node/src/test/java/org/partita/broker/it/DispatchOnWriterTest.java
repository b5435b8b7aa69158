package org.partita.broker.it;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.core.BrokerQueue;
import org.partita.broker.core.ConsumerRef;
import org.partita.jms.protocol.selector.Selector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Where a just-stored message is dispatched (issue 17, docs/performance.md steps 10 and 16): on the
 * store writer's own thread while few messages wait in its queue, which spares a thread hand-off on
 * every persistent send; on the queue's executor once messages wait there, so that the writer does
 * not spend its time on one queue's dispatch before its next group commit. Messages delivered and
 * not yet acknowledged are no backlog: the dispatch does not walk past them.
 */
@Tag("slow")
class DispatchOnWriterTest {
    private static final String WRITER = "partita-store-writer";
    private static final int SHALLOW = BrokerQueue.IN_PLACE_DEPTH;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void theWriterDispatchesWhileFewMessagesWaitAndTheQueuesExecutorBehindABacklog() throws Exception {
        BrokerQueue queue = node.node().broker().queue("writer-dispatch");
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        List<String> ids = Collections.synchronizedList(new ArrayList<>());
        // takes the probes and acknowledges none: they stay delivered; the fillers wait
        ConsumerRef recorder = new ConsumerRef("recorder", (c, entry, partition) -> {
            threads.add(Thread.currentThread().getName());
            ids.add(entry.message().wire().messageId());
        }, Selector.parse("probe = TRUE"), 1_000, 0);
        queue.attach(recorder).get(10, TimeUnit.SECONDS);

        int held = SHALLOW + 8;
        List<String> sent = new ArrayList<>();
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("writer-dispatch"));
            for (int i = 0; i < held; i++) {
                sent.add(send(s, p, "probe " + i, true)); // persistent, confirmed once stored
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> threads.size() == held);
            for (int i = 0; i < SHALLOW + 8; i++) {
                send(s, p, "filler " + i, false);
            }
            sent.add(send(s, p, "probe behind the fillers", true));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> threads.size() == held + 1);

        assertEquals(sent, ids, "in the order they were sent, whichever thread dispatched them");
        for (int i = 0; i < held; i++) {
            assertEquals(WRITER, threads.get(i), "probe " + i + " arrived with " + i
                    + " delivered, unacknowledged messages and none waiting");
        }
        assertNotEquals(WRITER, threads.get(held), "a probe behind " + (SHALLOW + 8)
                + " waiting messages goes through its queue's executor");
    }

    private static String send(Session s, MessageProducer p, String text, boolean probe) throws Exception {
        var m = s.createTextMessage(text);
        m.setBooleanProperty("probe", probe);
        p.send(m);
        return m.getJMSMessageID();
    }
}
