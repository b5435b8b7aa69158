package org.partita.jms.client;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.protocol.ErrorCode;

/** What reaches the connection's ExceptionListener while the connection stays up. */
class ExceptionReportsTest {
    private final FacadeFixture f;
    private final List<JMSException> told = new CopyOnWriteArrayList<>();

    ExceptionReportsTest() throws JMSException {
        f = new FacadeFixture();
        f.connection.setExceptionListener(told::add);
    }

    @AfterEach
    void close() throws JMSException {
        f.close();
    }

    @Test
    void aNonPersistentSendTheNodeRefusedIsReported() throws JMSException {
        Session s = f.connection.createSession();
        MessageProducer p = s.createProducer(s.createQueue("q"));
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        f.transport.refuseSends(ErrorCode.RESOURCE_EXHAUSTED, "queue 'q' is full");
        p.send(s.createTextMessage("dropped"));
        await("the report").atMost(Duration.ofSeconds(5)).until(() -> !told.isEmpty());
        assertInstanceOf(ResourceAllocationException.class, told.get(0));
        assertTrue(
                told.get(0).getMessage().contains("queue 'q' is full"),
                told.get(0).getMessage());
        s.createConsumer(s.createQueue("q")).close(); // the connection is still usable
    }

    @Test
    void aSessionCloseTheNodeRefusedIsReported() throws JMSException {
        Session s = f.connection.createSession();
        f.transport.refuseSessionCloses(ErrorCode.ILLEGAL_STATE, "session busy");
        s.close();
        await("the report").atMost(Duration.ofSeconds(5)).until(() -> !told.isEmpty());
        assertTrue(
                told.get(0).getMessage().contains("closing session"),
                told.get(0).getMessage());
        assertTrue(
                told.get(0).getMessage().contains("session busy"), told.get(0).getMessage());
        f.connection.createSession().close(); // still up
    }

    @Test
    void aConsumerCloseTheNodeRefusedIsReported() throws JMSException {
        Session s = f.connection.createSession();
        MessageConsumer c = s.createConsumer(s.createQueue("q"));
        f.transport.refuseConsumerCloses(ErrorCode.ILLEGAL_STATE, "consumer unknown");
        c.close();
        await("the report").atMost(Duration.ofSeconds(5)).until(() -> !told.isEmpty());
        assertTrue(
                told.get(0).getMessage().contains("closing consumer"),
                told.get(0).getMessage());
    }

    @Test
    void anInterruptedCloseKeepsTheInterruptFlagAndIsNotReportedAsTheNodesFault() throws Exception {
        Session s = f.connection.createSession();
        f.transport.neverAnswerSessionCloses();
        Thread.currentThread().interrupt();
        try {
            s.close();
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt flag is kept");
        } finally {
            Thread.interrupted();
        }
        assertEquals(List.of(), told);
    }

    @Test
    void nothingIsReportedWhenTheConnectionIsClosedOrLost() throws JMSException {
        Session s = f.connection.createSession();
        f.transport.refuseSessionCloses(ErrorCode.ILLEGAL_STATE, "refused");
        f.transport.drop("node gone");
        await("the loss").atMost(Duration.ofSeconds(5)).until(() -> told.size() == 1);
        s.close();
        assertEquals(1, told.size(), "only the loss itself: " + told);
    }
}
