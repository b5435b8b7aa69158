package org.partita.ee;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.partita.ee.undeploy.SlowForwarder;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * A message-driven bean undeployed and deployed again 20 times in a row while a producer sends
 * keyed messages and the bean works 50 ms on each: WildFly refuses invocations while it shuts the
 * bean down, and the adapter must hand every message it could not deliver back. Counted on what
 * the bean forwarded in its transaction: nothing lost, every key in order, every repeat flagged
 * as a redelivery, nothing dead-lettered.
 */
@Tag("slow")
@Tag("wildfly")
@RunAsClient
@ExtendWith(PartitaNodeForWildFly.class)
@ExtendWith(ArquillianExtension.class)
class UndeployUnderLoadWildFlyTest {
    private static final String BEAN = "slow-bean";
    private static final int CYCLES = 20;
    private static final int KEYS = 16;
    /** Bounds the producer; it stops earlier, once the cycles are done. */
    private static final int MAX_ROUNDS = 1_000;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive adapter() {
        return Deployments.adapter();
    }

    @Deployment(name = BEAN, managed = false, testable = false)
    static WebArchive bean() {
        return ShrinkWrap.create(WebArchive.class, "partita-slow-bean.war")
                .addClass(SlowForwarder.class)
                .addAsWebInfResource(new StringAsset(Deployments.RA_BINDING), "jboss-ejb3.xml");
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void undeployingAndDeployingTwentyTimesWhileMessagesFlowLosesNothingAndKeepsEachKeyInOrder() throws Exception {
        PartitaNodeForWildFly.node()
                .broker()
                .updateQueue(SlowForwarder.QUEUE, "partitions=4&deadLetterQueue=ee.undeploy.dead");
        Forwarded forwarded = new Forwarded();
        Set<String> sent = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        Thread producer = new Thread(() -> produce(sent, stop, producerFailure), "undeploy-producer");
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            s.createConsumer(s.createQueue(SlowForwarder.DONE)).setMessageListener(m -> forwarded.add((TextMessage) m));
            c.start();
            producer.start();
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                deployer.deploy(BEAN);
                int before = forwarded.size();
                await("the bean works in cycle " + cycle)
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> forwarded.size() >= before + 8);
                deployer.undeploy(BEAN);
            }
            assertTrue(producer.isAlive(), "the producer sent through every cycle");
            stop.set(true);
            producer.join(30_000);
            assertNull(producerFailure.get(), "the producer sent without failing");
            deployer.deploy(BEAN);
            try {
                await("every sent message forwarded once the bean stays")
                        .atMost(Duration.ofSeconds(180))
                        .until(() -> forwarded.containsAll(sent));
            } finally {
                deployer.undeploy(BEAN);
            }
        }
        assertEquals(0, forwarded.orderViolations(), forwarded.toString());
        assertEquals(0, forwarded.unflaggedRepeats(), forwarded.toString());
        try (PartitaAdmin admin = PartitaAdmin.connect(factory())) {
            assertEquals(0, admin.queueStats(SlowForwarder.QUEUE).deadLettered(), "nothing dead-lettered");
            assertEquals(
                    0,
                    admin.queueStats().stream()
                            .filter(q -> q.name().equals("ee.undeploy.dead"))
                            .mapToLong(q -> q.depth() + q.inFlight())
                            .sum(),
                    "the dead-letter queue holds nothing");
        }
    }

    /** Sends each key's next sequence number, round after round, 40 messages a second (the bean takes 80). */
    private static void produce(Set<String> sent, AtomicBoolean stop, AtomicReference<Throwable> failure) {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue(SlowForwarder.QUEUE));
            for (int round = 0; round < MAX_ROUNDS && !stop.get(); round++) {
                for (int k = 0; k < KEYS; k++) {
                    String key = "machine-" + k;
                    TextMessage m = s.createTextMessage(key + ":" + round);
                    m.setStringProperty("JMSXGroupID", key);
                    p.send(m);
                    sent.add(key + ":" + round);
                }
                Thread.sleep(400); // the pace: 40 messages a second, a pause on purpose
            }
        } catch (JMSException | InterruptedException | RuntimeException e) {
            failure.set(e);
        }
    }

    private static PartitaConnectionFactory factory() {
        return new PartitaConnectionFactory(PartitaNodeForWildFly.node().url());
    }

    /** What the bean forwarded: each key's first arrivals must come in order, and a repeat must be flagged. */
    private static final class Forwarded {
        private final Set<String> seen = new HashSet<>();
        private final Map<String, Integer> highest = new HashMap<>();
        private final List<String> problems = new ArrayList<>();
        private int orderViolations;
        private int unflaggedRepeats;

        synchronized void add(TextMessage m) {
            try {
                String text = m.getText();
                boolean redelivered = m.getBooleanProperty("redelivered");
                String[] parts = text.split(":");
                int seq = Integer.parseInt(parts[1]);
                if (!seen.add(text)) {
                    if (!redelivered) {
                        unflaggedRepeats++;
                        problems.add("unflagged repeat " + text);
                    }
                    return;
                }
                int before = highest.getOrDefault(parts[0], -1);
                if (seq < before) {
                    orderViolations++;
                    problems.add(text + " after " + parts[0] + ":" + before);
                }
                highest.put(parts[0], Math.max(seq, before));
            } catch (JMSException e) {
                problems.add(e.toString());
            }
        }

        synchronized int size() {
            return seen.size();
        }

        synchronized boolean containsAll(Set<String> texts) {
            return seen.containsAll(texts);
        }

        synchronized int orderViolations() {
            return orderViolations;
        }

        synchronized int unflaggedRepeats() {
            return unflaggedRepeats;
        }

        @Override
        public synchronized String toString() {
            return seen.size() + " forwarded; problems: " + problems.subList(0, Math.min(20, problems.size()));
        }
    }
}
