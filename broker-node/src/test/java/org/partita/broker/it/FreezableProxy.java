package org.partita.broker.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A TCP relay on loopback in front of a node that can be frozen: it then stops passing bytes either
 * way but keeps every socket open, as a hung node or a network that drops packets does. What a
 * closed socket tells a client at once, a frozen relay never tells it.
 */
final class FreezableProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final CountDownLatch frozen = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);

    FreezableProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String url() {
        return "tcp://127.0.0.1:" + server.getLocalPort();
    }

    /** From now on nothing passes, and nothing is closed. */
    void freeze() {
        frozen.countDown();
    }

    private void accept() {
        try {
            while (!server.isClosed()) {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream, "proxy-up");
                pump(upstream, client, "proxy-down");
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void pump(Socket from, Socket to, String name) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            if (frozen.getCount() == 0) {
                                closed.await(); // hold the bytes and the socket until the test ends
                                return;
                            }
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // one side closed
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        closed.countDown();
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
