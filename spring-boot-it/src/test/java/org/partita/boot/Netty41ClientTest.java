package org.partita.boot;

import io.netty.util.Version;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.jms.client.PartitaConnectionFactory;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Partita client on the Netty 4.1 that Spring Boot 3 manages: connect, send, receive, async send;
 * run twice by the build, with Netty's epoll jars (the client picks epoll) and without (it runs on NIO).
 */
@Tag("slow")
@Timeout(120)
class Netty41ClientTest {
    private static NodeProcess node;

    @BeforeAll
    static void startNode() throws Exception {
        node = NodeProcess.start();
    }

    @AfterAll
    static void stopNode() throws Exception {
        node.close();
    }

    @Test
    void theClientRunsOnNetty41() throws Exception {
        String transport = Version.identify().get("netty-transport").artifactVersion();
        assertTrue(transport.startsWith("4.1."), "this module's class path has Netty " + transport + ", not 4.1");
        PartitaConnectionFactory cf = new PartitaConnectionFactory(node.url());
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue("on41")).send(s.createTextMessage("hello from Netty " + transport));
            MessageConsumer consumer = s.createConsumer(s.createQueue("on41"));
            c.start();
            Message m = consumer.receive(10_000);
            assertNotNull(m);
            assertEquals("hello from Netty " + transport, ((TextMessage) m).getText());
            String expected = System.getProperty("partita.expectedTransport");
            if (expected != null) { // set by each of the module's test runs (pom.xml)
                assertEquals(expected, clientEventLoopTransport(), "the Netty transport the client's event loops run on");
            }
        }
        try (JMSContext ctx = cf.createContext()) {
            CompletableFuture<Message> done = new CompletableFuture<>();
            ctx.createProducer().setAsync(new jakarta.jms.CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    done.complete(message);
                }

                @Override
                public void onException(Message message, Exception exception) {
                    done.completeExceptionally(exception);
                }
            }).send(ctx.createQueue("on41"), "async");
            assertNotNull(done.get(10, TimeUnit.SECONDS));
            assertEquals("async", ctx.createConsumer(ctx.createQueue("on41")).receiveBody(String.class, 10_000));
        }
    }

    /**
     * What a thread dump shows an operator: "epoll" when the client's event loops run in Netty's epoll
     * transport, "nio" when in its NIO one.
     */
    private static String clientEventLoopTransport() {
        for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
            if (!t.getKey().getName().startsWith("partita-client-io-")) {
                continue;
            }
            for (StackTraceElement frame : t.getValue()) {
                if (frame.getClassName().startsWith("io.netty.channel.epoll.")) {
                    return "epoll";
                }
                if (frame.getClassName().startsWith("io.netty.channel.nio.")) {
                    return "nio";
                }
            }
        }
        return "no partita-client-io thread in a Netty event loop";
    }
}
