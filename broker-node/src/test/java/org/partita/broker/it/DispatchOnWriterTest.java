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
 * Where a just-stored message is dispatched (issue 17, docs/performance.md step 10): on the store
 * writer's own thread while its queue is shallow, which spares a thread hand-off on every persistent
 * send; on the queue's executor once the queue holds a backlog, so that the writer does not spend its
 * time on one queue's dispatch before its next group commit.
 */
@Tag("slow")
class DispatchOnWriterTest {
    private static final String WRITER = "partita-store-writer";
    private static final int SHALLOW = BrokerQueue.IN_PLACE_DEPTH;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void theWriterDispatchesWhileTheQueueIsShallowAndTheQueuesExecutorOnceItHoldsABacklog() throws Exception {
        BrokerQueue queue = node.node().broker().queue("writer-dispatch");
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        List<String> ids = Collections.synchronizedList(new ArrayList<>());
        // takes everything and acknowledges nothing, so the queue's depth grows by one per send
        ConsumerRef recorder = new ConsumerRef("recorder", (c, entry, partition) -> {
            threads.add(Thread.currentThread().getName());
            ids.add(entry.message().wire().messageId());
        }, Selector.matchAll(), 1_000, 0);
        queue.attach(recorder).get(10, TimeUnit.SECONDS);

        int sends = SHALLOW + 8;
        List<String> sent = new ArrayList<>();
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("writer-dispatch"));
            for (int i = 0; i < sends; i++) {
                var m = s.createTextMessage("m" + i);
                p.send(m); // persistent, confirmed once stored: the queue is idle between sends
                sent.add(m.getJMSMessageID());
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> threads.size() == sends);

        assertEquals(sent, ids, "in the order they were sent, whichever thread dispatched them");
        for (int i = 0; i < SHALLOW; i++) {
            assertEquals(WRITER, threads.get(i), "message " + (i + 1) + " arrived in a queue of depth " + (i + 1));
        }
        for (int i = SHALLOW; i < sends; i++) {
            assertNotEquals(WRITER, threads.get(i), "message " + (i + 1) + " arrived in a queue of depth " + (i + 1)
                    + ": a queue with a backlog goes through its executor");
        }
    }
}
