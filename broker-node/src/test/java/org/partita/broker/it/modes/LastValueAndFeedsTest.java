package org.partita.broker.it.modes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.Absence;
import org.partita.broker.it.NodeExtension;

@Tag("slow")
class LastValueAndFeedsTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private static List<String> browse(Session s, String queue) throws Exception {
        QueueBrowser b = s.createBrowser(s.createQueue(queue));
        List<String> out = new ArrayList<>();
        for (Enumeration<?> e = b.getEnumeration(); e.hasMoreElements(); ) {
            out.add(((TextMessage) e.nextElement()).getText());
        }
        b.close();
        return out;
    }

    @Test
    void lastValueQueueKeepsOnlyTheNewestAndBrowsingLeavesIt() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("recipe-line1?lastValue=queue"));
            for (String v : new String[] {"r1", "r2", "r3"}) {
                p.send(s.createTextMessage(v));
            }
            assertEquals(List.of("r3"), browse(s, "recipe-line1"));
            assertEquals(List.of("r3"), browse(s, "recipe-line1"), "browsing removes nothing");
            c.start();
            MessageConsumer consumer = s.createConsumer(s.createQueue("recipe-line1"));
            assertEquals("r3", ((TextMessage) consumer.receive(2000)).getText());
            Absence.awaitQueueHoldsNothing(c, "recipe-line1", "only the newest value is delivered, once");
            assertEquals(List.of(), browse(s, "recipe-line1"), "consuming and acknowledging removes it");
        }
    }

    @Test
    void aDepthLimitCountsKeysSoANewValueAlwaysReplacesTheOld() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer one = s.createProducer(s.createQueue("setpoint?lastValue=queue&maxDepthMessages=1"));
            for (String v : new String[] {"v1", "v2", "v3", "v4"}) {
                one.send(s.createTextMessage(v)); // each replaces the previous: never more than one held
            }
            assertEquals(List.of("v4"), browse(s, "setpoint"));

            MessageProducer p = s.createProducer(s.createQueue("machines?lastValue=machine&maxDepthMessages=2"));
            p.send(state(s, "m1", "idle"));
            p.send(state(s, "m2", "idle"));
            p.send(state(s, "m1", "running")); // a new value of a held key
            jakarta.jms.ResourceAllocationException full = org.junit.jupiter.api.Assertions.assertThrows(
                    jakarta.jms.ResourceAllocationException.class, () -> p.send(state(s, "m3", "idle")));
            assertTrue(full.getMessage().contains("machines"), full.getMessage());
            List<String> held = browse(s, "machines");
            Collections.sort(held);
            assertEquals(List.of("m1 running", "m2 idle"), held);
        }
    }

    private static TextMessage state(Session s, String machine, String state) throws Exception {
        TextMessage m = s.createTextMessage(machine + " " + state);
        m.setStringProperty("machine", machine);
        return m;
    }

    @Test
    void lastValuePerPropertyKeepsTheNewestOfEachValueAndSurvivesRestart() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("state?lastValue=machine"));
            String[][] updates = {
                {"m1", "Running"}, {"m2", "Running"}, {"m1", "Stopped"}, {"m2", "Idle"}, {"m1", "Running"}
            };
            for (String[] u : updates) {
                TextMessage m = s.createTextMessage(u[0] + ":" + u[1]);
                m.setStringProperty("machine", u[0]);
                p.send(m);
            }
            List<String> current = browse(s, "state");
            Collections.sort(current);
            assertEquals(List.of("m1:Running", "m2:Idle"), current);
        }
        node.restart();
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            List<String> current = browse(s, "state");
            Collections.sort(current);
            assertEquals(List.of("m1:Running", "m2:Idle"), current);
            TextMessage m = s.createTextMessage("m2:Running");
            m.setStringProperty("machine", "m2");
            s.createProducer(s.createQueue("state")).send(m);
            current = browse(s, "state");
            Collections.sort(current);
            assertEquals(List.of("m1:Running", "m2:Running"), current, "the rule still holds after a restart");
        }
    }

    @Test
    void queuesSubscribedToTopicPatternsSpoolMatchingMessagesAndPromoteNonPersistentOnes() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            node.node().broker().updateQueue("downtime", "subscriptions=mfg/machine/>");
            node.node().broker().updateQueue("line2", "subscriptions=mfg/line/2/*");
            MessageProducer p = s.createProducer(null);
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            p.send(s.createTopic("mfg/machine/m-001/state"), s.createTextMessage("m-001 Running"));
            p.send(s.createTopic("mfg/line/2/recipe"), s.createTextMessage("line 2 recipe"));
            p.send(s.createTopic("mfg/other"), s.createTextMessage("nobody"));
        }
        node.restart(); // promoted messages are durable in the queues
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            MessageConsumer downtime = s.createConsumer(s.createQueue("downtime"));
            assertEquals("m-001 Running", ((TextMessage) downtime.receive(2000)).getText());
            Absence.assertNothingAhead(
                    s, s.createQueue("downtime"), downtime, "only the matching message was spooled into downtime");
            MessageConsumer line2 = s.createConsumer(s.createQueue("line2"));
            assertEquals("line 2 recipe", ((TextMessage) line2.receive(2000)).getText());
        }
    }

    /** Solace's restart pattern: browse each line's LVQ for its current recipe, then process changes from there. */
    @Test
    void restartPatternBrowseTheCurrentRecipeThenBindToTheChangeQueue() throws Exception {
        for (int line = 1; line <= 3; line++) {
            node.node()
                    .broker()
                    .updateQueue("recipe-lvq-" + line, "lastValue=queue&subscriptions=mfg/line/" + line + "/recipe");
        }
        node.node().broker().updateQueue("recipe-changes", "subscriptions=mfg/line/*/recipe");
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(null);
            for (int line = 1; line <= 3; line++) {
                for (int v = 1; v <= 2; v++) {
                    p.send(
                            s.createTopic("mfg/line/" + line + "/recipe"),
                            s.createTextMessage("line" + line + "-v" + v));
                }
            }
            // The integration was down: the change queue holds every change; a fresh start must not
            // replay history to know where it stands.
            s.createConsumer(s.createQueue("recipe-changes")).close();
        }
        node.restart();
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            List<String> current = new ArrayList<>();
            for (int line = 1; line <= 3; line++) {
                current.addAll(browse(s, "recipe-lvq-" + line));
            }
            assertEquals(List.of("line1-v2", "line2-v2", "line3-v2"), current, "step 1: current recipe of each line");
            // Step 2: bind to the change queue and process from that point.
            c.start();
            MessageConsumer changes = s.createConsumer(s.createQueue("recipe-changes"));
            drain(changes);
            MessageProducer p = s.createProducer(s.createTopic("mfg/line/2/recipe"));
            p.send(s.createTextMessage("line2-v3"));
            Message m = changes.receive(2000);
            assertNotNull(m);
            assertEquals("line2-v3", ((TextMessage) m).getText());
            m.acknowledge();
            assertEquals(List.of("line2-v3"), browse(s, "recipe-lvq-2"));
        }
    }

    private static void drain(MessageConsumer c) throws Exception {
        Message m;
        Message last = null;
        while ((m = c.receive(300)) != null) {
            last = m;
        }
        if (last != null) {
            last.acknowledge();
        }
    }
}
