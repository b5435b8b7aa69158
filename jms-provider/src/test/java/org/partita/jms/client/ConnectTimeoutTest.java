package org.partita.jms.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * README, option {@code connectTimeout}: it bounds the TCP connect and the handshake together, so a
 * port where something other than a node listens fails within it, saying there is no node there.
 */
class ConnectTimeoutTest {
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private ServerSocket server;

    /** A server on a free loopback port that accepts connections and sends {@code banner} (or nothing). */
    private int listen(String banner) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread t = new Thread(
                () -> {
                    try {
                        while (!server.isClosed()) {
                            Socket s = server.accept();
                            accepted.add(s);
                            if (banner != null) {
                                OutputStream out = s.getOutputStream();
                                out.write(banner.getBytes(StandardCharsets.US_ASCII));
                                out.flush();
                            }
                        }
                    } catch (IOException closed) {
                        // the test is over
                    }
                },
                "not-a-node");
        t.setDaemon(true);
        t.start();
        return server.getLocalPort();
    }

    @AfterEach
    void close() throws IOException {
        if (server != null) {
            server.close();
        }
        for (Socket s : accepted) {
            s.close();
        }
    }

    @Test
    void aPeerThatSaysNothingFailsWithinTheTimeout() throws IOException {
        int port = listen(null);
        PartitaConnectionFactory f = new PartitaConnectionFactory("tcp://127.0.0.1:" + port + "?connectTimeout=500");
        long start = System.nanoTime();
        JMSException e = assertThrows(JMSException.class, f::createConnection);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.getMessage().contains("no Partita node at 127.0.0.1:" + port), e.getMessage());
        assertTrue(e.getMessage().contains("500 ms"), e.getMessage());
        assertTrue(millis < 5_000, "failed after " + millis + " ms, not within the 500 ms connectTimeout");
        assertTrue(millis >= 400, "gave up after " + millis + " ms, before the timeout");
    }

    @Test
    void aPeerThatSendsATextBannerFailsAtOnceSayingThereIsNoNode() throws IOException {
        int port = listen("SSH-2.0-OpenSSH_9.6\r\n");
        PartitaConnectionFactory f = new PartitaConnectionFactory("tcp://127.0.0.1:" + port + "?connectTimeout=10000");
        long start = System.nanoTime();
        JMSException e = assertThrows(JMSException.class, f::createConnection);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.getMessage().contains("no Partita node at 127.0.0.1:" + port), e.getMessage());
        assertTrue(millis < 5_000, "failed after " + millis + " ms");
    }

    @Test
    void aPeerThatClosesAtOnceFailsSayingThereIsNoNode() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread t = new Thread(
                () -> {
                    try {
                        while (!server.isClosed()) {
                            server.accept().close();
                        }
                    } catch (IOException closed) {
                        // the test is over
                    }
                },
                "closing-peer");
        t.setDaemon(true);
        t.start();
        PartitaConnectionFactory f =
                new PartitaConnectionFactory("tcp://127.0.0.1:" + server.getLocalPort() + "?connectTimeout=10000");
        JMSException e = assertThrows(JMSException.class, f::createConnection);
        assertTrue(e.getMessage().contains("no Partita node at 127.0.0.1:" + server.getLocalPort()), e.getMessage());
    }
}
