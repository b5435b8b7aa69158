package org.partita.broker.it.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.Absence;
import org.partita.broker.it.NodeExtension;
import org.partita.protocol.PartitionKeys;

@Tag("slow")
class PartitionExtrasTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private static String keyIn(int partition, int partitions, String prefix) {
        for (int i = 0; ; i++) {
            if (PartitionKeys.partition(prefix + i, partitions) == partition) {
                return prefix + i;
            }
        }
    }

    @Test
    void perPartitionFiguresAndTheHotPartitionAreReadableOverJmx() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("jmx?partitions=4"));
            String hot = keyIn(3, 4, "filler-");
            for (int i = 0; i < 30; i++) {
                Message m = s.createTextMessage("chatter");
                m.setStringProperty("JMSXGroupID", hot);
                p.send(m);
            }
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = server.queryNames(new ObjectName("org.partita:type=Node,*"), null);
            assertEquals(1, names.size(), "one node bean in this JVM: " + names);
            ObjectName name = names.iterator().next();
            String[] table = (String[])
                    server.invoke(name, "partitionTable", new Object[] {"jmx"}, new String[] {String.class.getName()});
            assertEquals(4, table.length);
            assertTrue(table[3].contains("depth=30") && table[3].contains("hot=true"), table[3]);
            assertEquals(
                    3,
                    server.invoke(name, "hotPartition", new Object[] {"jmx"}, new String[] {String.class.getName()}));
        }
    }

    @Test
    void aPoisonMessageOnOneKeyDoesNotHoldUpOtherPartitions() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session producer = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p =
                    producer.createProducer(producer.createQueue("poison2?partitions=2&maxDeliveryAttempts=20"));
            String stuck = keyIn(0, 2, "k");
            String fine = keyIn(1, 2, "k");
            Message poison = producer.createTextMessage("poison");
            poison.setStringProperty("JMSXGroupID", stuck);
            p.send(poison);
            for (int i = 0; i < 5; i++) {
                Message m = producer.createTextMessage("ok" + i);
                m.setStringProperty("JMSXGroupID", fine);
                p.send(m);
            }
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = tx.createConsumer(tx.createQueue("poison2"));
            c.start();
            Set<String> good = new HashSet<>();
            for (int round = 0; round < 10 && good.size() < 5; round++) {
                Message m = consumer.receive(2000);
                assertNotNull(m);
                if (stuck.equals(m.getStringProperty("JMSXGroupID"))) {
                    tx.rollback(); // the application fails on this one, again and again
                } else {
                    good.add(m.getBody(String.class));
                    tx.commit();
                }
            }
            assertEquals(5, good.size(), "the other partition kept flowing while the poison message was retried");
        }
    }

    @Test
    void onAPartitionedQueueOnlyTheHighestPriorityConsumersOwnPartitions() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session low = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session high = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer standby =
                    low.createConsumer(low.createQueue("pp?partitions=4&rebalanceDelay=100&priority=1"));
            MessageConsumer primary = high.createConsumer(high.createQueue("pp?priority=5"));
            c.start();
            MessageProducer p = low.createProducer(low.createQueue("pp"));
            long deadline = System.currentTimeMillis() + 10_000;
            int toPrimary = 0;
            while (toPrimary < 8 && System.currentTimeMillis() < deadline) {
                Message m = low.createTextMessage("x");
                m.setStringProperty("JMSXGroupID", "k" + toPrimary);
                p.send(m);
                Message got = primary.receive(500);
                if (got != null) {
                    toPrimary++;
                } else {
                    standby.receive(100);
                }
            }
            assertEquals(8, toPrimary, "after the rebalance every partition belongs to the higher priority consumer");
            // everything sent was consumed and acknowledged: the standby holds nothing and nothing waits for it
            Absence.awaitQueueHoldsNothing(c, "pp", "the standby gets nothing more");
        }
    }

    @Test
    void aFanOutQueueWithPartitionsKeepsEachKeyInOrderPerAppId() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            node.node().broker().updateQueue("fp", "mode=fanout&appIds=a,b&partitions=4");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("fp"));
            for (int i = 0; i < 40; i++) {
                Message m = s.createTextMessage("m");
                m.setStringProperty("JMSXGroupID", "key" + (i % 4));
                m.setIntProperty("seq", i / 4);
                p.send(m);
            }
            c.start();
            for (String app : new String[] {"a", "b"}) {
                MessageConsumer consumer = s.createConsumer(s.createQueue("fp?appId=" + app));
                int[] next = new int[4];
                for (int i = 0; i < 40; i++) {
                    Message m = consumer.receive(2000);
                    assertNotNull(m, app + " message " + i);
                    int k = Integer.parseInt(m.getStringProperty("JMSXGroupID").substring(3));
                    assertEquals(next[k]++, m.getIntProperty("seq"));
                }
                consumer.close();
            }
        }
    }
}
