package org.partita.broker.it.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TransactionRolledBackException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.it.NodeExtension;

/**
 * A transaction that consumed a keyed message and cannot commit (what it sends finds its queue full)
 * is rolled back by the node: the consumed message comes back first, ahead of its key's later
 * messages that the consumer had already prefetched.
 */
@Tag("slow")
class FailedCommitKeyOrderTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @ParameterizedTest
    @ValueSource(strings = {"orders?partitions=2", "ordersPlain"})
    void aRefusedCommitRedeliversTheConsumedMessageBeforeTheKeysNextOnes(String queue) throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session plain = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = plain.createProducer(plain.createQueue(queue));
            for (int i = 0; i < 10; i++) {
                Message m = plain.createMessage();
                m.setStringProperty("JMSXGroupID", "k");
                m.setIntProperty("seq", i);
                p.send(m);
            }
            plain.createProducer(plain.createQueue("outbox?maxDepthMessages=1"))
                    .send(plain.createMessage()); // now full

            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = tx.createConsumer(tx.createQueue(queue));
            MessageProducer forward = tx.createProducer(tx.createQueue("outbox"));
            c.start();
            Message first = consumer.receive(5000);
            assertEquals(0, first.getIntProperty("seq"));
            forward.send(tx.createMessage());
            assertThrows(TransactionRolledBackException.class, tx::commit);

            Message again = consumer.receive(5000);
            assertNotNull(again);
            assertEquals(
                    0, again.getIntProperty("seq"), "the rolled-back message comes back before its key's next one");
            assertTrue(again.getJMSRedelivered());
            for (int i = 1; i < 10; i++) {
                assertEquals(i, consumer.receive(5000).getIntProperty("seq"));
            }
            tx.commit();
        }
    }
}
