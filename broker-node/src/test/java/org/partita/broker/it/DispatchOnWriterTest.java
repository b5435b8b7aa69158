package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.protocol.selector.Selector;

/**
 * Where a just-stored message is dispatched (issue 17, docs/performance.md steps 10, 16 and 18): in
 * place, on the thread that committed it, while few messages wait in its queue, which spares a thread
 * hand-off on every persistent send. That thread is the sender's network thread when it committed
 * the send itself at the end of its turn (step 18), else the store writer's. Once messages wait in
 * the queue, on the queue's executor, so that the committing thread does not spend its time on one
 * queue's dispatch. Messages delivered and not yet acknowledged are no backlog: the dispatch does not
 * walk past them.
 */
@Tag("slow")
class DispatchOnWriterTest {
    /** The threads of the queues' executors. */
    private static final String QUEUE_POOL = "partita-core";

    private static final int SHALLOW = BrokerQueue.IN_PLACE_DEPTH;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void theCommittingThreadDispatchesWhileFewMessagesWaitAndTheQueuesExecutorBehindABacklog() throws Exception {
        BrokerQueue queue = node.node().broker().queue("writer-dispatch");
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        List<String> ids = Collections.synchronizedList(new ArrayList<>());
        // takes the probes and acknowledges none: they stay delivered; the fillers wait
        ConsumerRef recorder = new ConsumerRef(
                "recorder",
                (c, entry, partition) -> {
                    threads.add(Thread.currentThread().getName());
                    ids.add(entry.message().wire().messageId());
                },
                Selector.parse("probe = TRUE"),
                1_000,
                0);
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
            assertFalse(
                    threads.get(i).startsWith(QUEUE_POOL),
                    "probe " + i + " arrived with " + i
                            + " delivered, unacknowledged messages and none waiting, yet went through the queue's executor ("
                            + threads.get(i) + ")");
        }
        assertTrue(
                threads.get(held).startsWith(QUEUE_POOL),
                "a probe behind " + (SHALLOW + 8) + " waiting messages goes through its queue's executor, not "
                        + threads.get(held));
    }

    /**
     * A node's network threads commit what they write themselves when the writer is idle (step 18): a
     * consumer's acknowledgements (deletions that need no sync) at least, whatever the disk's speed.
     */
    @Test
    void aNodesNetworkThreadsCommitWhatTheyWriteThemselves() throws Exception {
        var counters = node.node().store().counters().orElseThrow();
        long before = counters.groupsByCaller();
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            var queue = s.createQueue("network-commits");
            MessageProducer p = s.createProducer(queue);
            var consumer = s.createConsumer(queue);
            for (int i = 0; i < 20; i++) {
                p.send(s.createTextMessage("m" + i));
                org.junit.jupiter.api.Assertions.assertNotNull(consumer.receive(10_000), "message " + i);
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> counters.groupsByCaller() > before);
    }

    private static String send(Session s, MessageProducer p, String text, boolean probe) throws Exception {
        var m = s.createTextMessage(text);
        m.setBooleanProperty("probe", probe);
        p.send(m);
        return m.getJMSMessageID();
    }
}
