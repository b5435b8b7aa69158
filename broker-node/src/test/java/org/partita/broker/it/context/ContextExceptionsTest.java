package org.partita.broker.it.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidClientIDRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.Queue;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.Topic;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.TransactionRolledBackRuntimeException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;
import org.partita.jms.client.JmsRuntimeExceptions;

/** Every failure of the simplified API is the unchecked exception the spec names. */
@Tag("slow")
class ContextExceptionsTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void eachCheckedExceptionMapsToItsRuntimeCounterpartKeepingMessageCodeAndCause() {
        Map<BiFunction<String, String, JMSException>, Class<? extends JMSRuntimeException>> pairs =
                new LinkedHashMap<>();
        pairs.put(IllegalStateException::new, IllegalStateRuntimeException.class);
        pairs.put(InvalidDestinationException::new, InvalidDestinationRuntimeException.class);
        pairs.put(InvalidSelectorException::new, InvalidSelectorRuntimeException.class);
        pairs.put(JMSSecurityException::new, JMSSecurityRuntimeException.class);
        pairs.put(MessageFormatException::new, MessageFormatRuntimeException.class);
        pairs.put(MessageNotWriteableException::new, MessageNotWriteableRuntimeException.class);
        pairs.put(ResourceAllocationException::new, ResourceAllocationRuntimeException.class);
        pairs.put(TransactionRolledBackException::new, TransactionRolledBackRuntimeException.class);
        pairs.put(TransactionInProgressException::new, TransactionInProgressRuntimeException.class);
        pairs.put(InvalidClientIDException::new, InvalidClientIDRuntimeException.class);
        pairs.put(JMSException::new, JMSRuntimeException.class);
        pairs.put(MessageEOFException::new, JMSRuntimeException.class); // no runtime counterpart in the API
        pairs.forEach((make, expected) -> {
            JMSException checked = make.apply("what went wrong", "CODE_7");
            RuntimeException root = new RuntimeException("root cause");
            checked.initCause(root);
            JMSRuntimeException converted = JmsRuntimeExceptions.convert(checked);
            assertEquals(expected, converted.getClass(), checked.getClass().getSimpleName());
            assertEquals("what went wrong", converted.getMessage());
            assertEquals("CODE_7", converted.getErrorCode());
            assertSame(checked, converted.getCause(), "the checked exception is the cause");
            assertSame(root, converted.getCause().getCause(), "and its own cause stays reachable");
        });
        JMSRuntimeException noCode = JmsRuntimeExceptions.convert(new InvalidDestinationException("no code"));
        assertNull(noCode.getErrorCode());
    }

    @Test
    void badSelectorsAreAnInvalidSelectorRuntimeException() {
        try (JMSContext ctx = node.factory().createContext()) {
            ctx.setClientID("selectors");
            Queue q = ctx.createQueue("q");
            Topic t = ctx.createTopic("t");
            String bad = "price >>> 3 AND";
            assertThrows(InvalidSelectorRuntimeException.class, () -> ctx.createConsumer(q, bad));
            assertThrows(InvalidSelectorRuntimeException.class, () -> ctx.createConsumer(t, bad, true));
            assertThrows(InvalidSelectorRuntimeException.class, () -> ctx.createDurableConsumer(t, "d", bad, false));
            assertThrows(InvalidSelectorRuntimeException.class, () -> ctx.createSharedConsumer(t, "s", bad));
            assertThrows(InvalidSelectorRuntimeException.class, () -> ctx.createSharedDurableConsumer(t, "sd", bad));
            assertThrows(InvalidSelectorRuntimeException.class, () -> ctx.createBrowser(q, bad));
        }
    }

    @Test
    void missingOrNamelessDestinationsAreAnInvalidDestinationRuntimeException() {
        try (JMSContext ctx = node.factory().createContext()) {
            ctx.setClientID("destinations");
            jakarta.jms.Destination foreign = new jakarta.jms.Destination() {};
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.createConsumer(null));
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.createConsumer(null, "a = 1"));
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.createConsumer(foreign));
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.createConsumer((Queue) () -> " "));
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.createDurableConsumer(null, "d"));
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.createSharedConsumer(null, "s"));
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.createSharedDurableConsumer(null, "sd"));
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.createBrowser(null));
            assertThrows(
                    InvalidDestinationRuntimeException.class,
                    () -> ctx.createProducer().send(null, "x"));
            assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.unsubscribe("never-subscribed"));
        }
    }

    /** A server's administered objects, or another copy of the client's classes, name Partita's queues too. */
    @Test
    void aQueueOfAnotherClassIsUsedByItsName() {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue foreign = () -> "administered-orders";
            ctx.createProducer().send(foreign, "by name");
            try (JMSConsumer c = ctx.createConsumer(ctx.createQueue("administered-orders"))) {
                assertEquals("by name", c.receiveBody(String.class, 5_000));
            }
            ctx.createProducer().send(ctx.createQueue("administered-orders"), "back");
            try (JMSConsumer c = ctx.createConsumer(foreign)) {
                assertEquals("back", c.receiveBody(String.class, 5_000));
            }
        }
    }

    @Test
    void emptyDestinationNamesAreRefusedWithAJMSRuntimeException() {
        try (JMSContext ctx = node.factory().createContext()) {
            assertThrows(JMSRuntimeException.class, () -> ctx.createQueue(""));
            assertThrows(JMSRuntimeException.class, () -> ctx.createTopic(null));
        }
    }

    @Test
    void aContextOfAConnectionThatCannotBeMadeIsAJMSRuntimeException() {
        int port = node.node().port();
        node.node().close();
        org.partita.jms.client.PartitaConnectionFactory f =
                new org.partita.jms.client.PartitaConnectionFactory("tcp://127.0.0.1:" + port + "?connectTimeout=2000");
        assertThrows(JMSRuntimeException.class, f::createContext);
        org.partita.jms.client.PartitaConnectionFactory typo =
                new org.partita.jms.client.PartitaConnectionFactory("tcp://127.0.0.1:" + port + "?prefetchh=1");
        assertThrows(JMSRuntimeException.class, () -> typo.createContext(JMSContext.CLIENT_ACKNOWLEDGE));
    }
}
