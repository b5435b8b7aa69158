package org.partita.jms.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.protocol.Frame;
import org.partita.protocol.Protocol;

/**
 * docs/protocol.md, "States": the client waits for the node's first answer within greetingTimeout and
 * for HELLO_OK within connectTimeout. Against scripted nodes: one that greets and checks the login
 * slowly, one that answers HELLO_OK without a greeting (as a node before version 5 does), one that
 * greets and then says nothing more.
 */
@Timeout(30)
class GreetingTransportTest {
    private static final long GREETING_MILLIS = 300;

    private ServerSocket server;
    private Socket node;
    private BrokerConnection connection;

    @AfterEach
    void close() throws IOException {
        if (connection != null) {
            connection.close();
        }
        if (node != null) {
            node.close();
        }
        server.close();
    }

    /** How a scripted node answers the HELLO it read. */
    @FunctionalInterface
    private interface Script {
        void answer(Frame.Hello hello, DataOutputStream toClient) throws Exception;
    }

    /** A node on a loopback port that answers the first HELLO by {@code script}, then reads on. */
    private NodeAddress scriptedNode(Script script) throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
        Thread t = new Thread(
                () -> {
                    try {
                        node = server.accept();
                        DataInputStream in = new DataInputStream(node.getInputStream());
                        script.answer(
                                (Frame.Hello) SocketFrames.read(in), new DataOutputStream(node.getOutputStream()));
                        while (true) {
                            in.readFully(new byte[in.readInt()]);
                        }
                    } catch (Exception closed) {
                        // the test is over
                    }
                },
                "scripted-node");
        t.setDaemon(true);
        t.start();
        return new NodeAddress("127.0.0.1", server.getLocalPort());
    }

    private static void write(DataOutputStream out, Frame frame) throws IOException {
        SocketFrames.write(out, frame);
    }

    private static Frame.HelloOk helloOk(Frame.Hello hello) {
        return new Frame.HelloOk(hello.requestId(), hello.version(), "scripted", 1 << 20);
    }

    private BrokerConnection connect(NodeAddress node, long connectTimeout) {
        return new NettyNodeConnector(1 << 20, ClientTls.DEFAULT, 0, GREETING_MILLIS)
                .connect(node, new Login(null, null, null), null, connectTimeout);
    }

    @Test
    void aNodeThatGreetsMayTakeLongerThanTheGreetingBoundToCheckTheLogin() throws Exception {
        NodeAddress node = scriptedNode((hello, out) -> {
            assertEquals(Protocol.VERSION, hello.version());
            write(out, new Frame.Greeting(hello.requestId()));
            Thread.sleep(3 * GREETING_MILLIS); // the login pool's time: the client must wait for it
            write(out, helloOk(hello));
        });
        connection = connect(node, 10_000);
        assertEquals("scripted", connection.nodeName());
    }

    @Test
    void aNodeThatAnswersHelloOkWithoutAGreetingIsConnectedTo() throws Exception {
        NodeAddress node = scriptedNode((hello, out) -> write(out, helloOk(hello)));
        connection = connect(node, 10_000);
        assertEquals("scripted", connection.nodeName());
    }

    @Test
    void aGreetingDoesNotStretchTheConnectTimeout() throws Exception {
        NodeAddress node = scriptedNode((hello, out) -> write(out, new Frame.Greeting(hello.requestId())));
        long start = System.nanoTime();
        BrokerError e = assertThrows(BrokerError.class, () -> connect(node, 1_000));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(PartitaErrorCodes.NOT_A_NODE, e.errorCode(), e.getMessage());
        assertTrue(e.getMessage().contains("within connectTimeout (1000 ms)"), e.getMessage());
        assertTrue(millis >= 900, "gave up after " + millis + " ms, before the connect timeout");
    }

    @Test
    void nothingWithinTheGreetingBoundIsNoNode() throws Exception {
        NodeAddress node = scriptedNode((hello, out) -> {});
        long start = System.nanoTime();
        BrokerError e = assertThrows(BrokerError.class, () -> connect(node, 10_000));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(PartitaErrorCodes.NOT_A_NODE, e.errorCode(), e.getMessage());
        assertEquals(
                "no Partita node at " + node + ": nothing answered the handshake within greetingTimeout ("
                        + GREETING_MILLIS + " ms); what listens there is no Partita node, or a node that is paused",
                e.getMessage());
        assertTrue(millis < 5_000, "gave up after " + millis + " ms, not within the greeting bound");
    }
}
