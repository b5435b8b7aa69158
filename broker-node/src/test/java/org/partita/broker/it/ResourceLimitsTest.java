package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.FlowLimits;
import org.partita.broker.embed.PartitaNode;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;

/**
 * Issue 12 points 1, 6 and 15: what a client may make a node hold before and after it authenticated,
 * and how many things it may open. Each limit is hit over real TCP; the node keeps serving others.
 */
@Tag("slow")
class ResourceLimitsTest {
    @TempDir
    Path tmp;

    private final LimitedNode limited = new LimitedNode();
    private PartitaNode node;

    private PartitaNode start(FlowLimits limits) throws Exception {
        node = limited.start(tmp.resolve("data"), limits);
        return node;
    }

    private Connection connect() throws JMSException {
        return limited.connect();
    }

    @AfterEach
    void stop() {
        limited.close();
    }

    /** Today 18 such sockets exhausted direct memory: each is now refused on its length prefix. */
    @Test
    void anUnauthenticatedSocketIsRefusedOnAFrameLargerThanAHello() throws Exception {
        start(FlowLimits.defaults());
        List<BadInputTest.Raw> raws = new ArrayList<>();
        try {
            for (int i = 0; i < 18; i++) {
                BadInputTest.Raw raw = new BadInputTest.Raw(node.port());
                raws.add(raw);
                raw.sendRaw(ByteBuffer.allocate(8)
                        .putInt(16 * 1024 * 1024)
                        .putInt(0x01000000)
                        .array());
                Frame.Error e = raw.readError();
                assertEquals(ErrorCode.FRAME_TOO_LARGE, e.code(), e.toString());
                raw.assertClosedByNode();
            }
        } finally {
            for (BadInputTest.Raw r : raws) {
                r.close();
            }
        }
        assertPersistentSendsStillWork();
    }

    @Test
    void aConnectionThatDoesNotAuthenticateInTimeIsClosed() throws Exception {
        start(FlowLimits.defaults().withHandshake(FlowLimits.DEFAULT_HANDSHAKE_FRAME_BYTES, 300));
        try (BadInputTest.Raw raw = new BadInputTest.Raw(node.port())) {
            Frame.Error e = raw.readError(); // within the socket's 5 s timeout
            assertEquals(ErrorCode.AUTHENTICATION_FAILED, e.code(), e.toString());
            assertEquals(0, e.requestId());
            raw.assertClosedByNode();
        }
        try (BadInputTest.Raw raw = new BadInputTest.Raw(node.port())) {
            raw.hello();
            raw.send(new Frame.Ping(9));
            Thread.sleep(600); // past the handshake timeout: an authenticated connection stays
            raw.send(new Frame.Ping(10));
            assertEquals(new Frame.Ok(9), raw.read());
            assertEquals(new Frame.Ok(10), raw.read());
        }
    }

    @Test
    void connectionsSessionsAndConsumersAreBounded() throws Exception {
        start(FlowLimits.defaults()
                .withConnections(2)
                .withSessionsPerConnection(2)
                .withConsumersPerConnection(2));
        Connection a = connect();
        connect();
        assertThrows(JMSException.class, this::connect, "a third connection");
        Session s1 = a.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Session s2 = a.createSession(false, Session.AUTO_ACKNOWLEDGE);
        assertThrows(ResourceAllocationException.class, () -> a.createSession(false, Session.AUTO_ACKNOWLEDGE));
        s1.createConsumer(s1.createQueue("c1"));
        s2.createConsumer(s2.createQueue("c2"));
        assertThrows(ResourceAllocationException.class, () -> s2.createConsumer(s2.createQueue("c3")));
        s2.close(); // frees a session and a consumer
        Session s3 = a.createSession(false, Session.AUTO_ACKNOWLEDGE);
        s3.createConsumer(s3.createQueue("c3"));
    }

    @Test
    void aQueueWithTooManyPartitionsOrTooLongANameIsRefusedAndTheNodeCarriesOn() throws Exception {
        start(FlowLimits.defaults());
        Connection c = connect();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        JMSException partitions =
                assertThrows(JMSException.class, () -> s.createConsumer(s.createQueue("huge?partitions=10000000")));
        assertTrue(partitions.getMessage().contains("partitions"), partitions.getMessage());
        String longName = "q".repeat(100_000);
        JMSException consume = assertThrows(JMSException.class, () -> s.createConsumer(s.createQueue(longName)));
        assertNotEquals(ErrorCode.INTERNAL.name(), consume.getErrorCode());
        MessageProducer p = s.createProducer(s.createQueue(longName));
        JMSException send = assertThrows(JMSException.class, () -> p.send(s.createTextMessage("x")));
        assertNotEquals(ErrorCode.INTERNAL.name(), send.getErrorCode());
        assertTrue(send.getMessage().contains("at most 255 characters"), send.getMessage());
        assertPersistentSendsStillWork();
    }

    @Test
    void commitOnANonTransactedSessionAndNegativeCreditAreRefused() throws Exception {
        start(FlowLimits.defaults());
        try (BadInputTest.Raw raw = new BadInputTest.Raw(node.port())) {
            raw.hello();
            raw.send(new Frame.SessionOpen(2, 1, false));
            assertEquals(new Frame.Ok(2), raw.read());
            raw.send(new Frame.Commit(3, 1));
            Frame.Error commit = raw.readError();
            assertEquals(ErrorCode.ILLEGAL_STATE, commit.code(), commit.toString());
            raw.send(new Frame.ConsumerOpen(4, 1, 7, "queue:credit", null, null, 0, -5));
            assertEquals(ErrorCode.INVALID_REQUEST, raw.readError().code());
            raw.send(new Frame.ConsumerOpen(5, 1, 8, "queue:credit", null, null, 0, 0));
            assertEquals(new Frame.Ok(5), raw.read());
            raw.send(new Frame.Credit(8, -1));
            Frame.RequestFailed credit = assertInstanceOf(Frame.RequestFailed.class, raw.read());
            assertEquals(ErrorCode.INVALID_REQUEST, credit.code(), credit.toString());
            raw.send(new Frame.Ping(6)); // the connection stays open
            assertEquals(new Frame.Ok(6), raw.read());
        }
    }

    private void assertPersistentSendsStillWork() throws JMSException {
        Connection c = connect();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(s.createQueue("healthy"));
        p.send(s.createTextMessage("still stored"));
        MessageConsumer consumer = s.createConsumer(s.createQueue("healthy"));
        c.start();
        TextMessage m = (TextMessage) consumer.receive(5_000);
        assertEquals("still stored", m.getText());
    }
}
