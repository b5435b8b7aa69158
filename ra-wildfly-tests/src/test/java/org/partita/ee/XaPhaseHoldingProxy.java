package org.partita.ee;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A loopback TCP proxy between an application server and a Partita node that, once armed, holds
 * back the first {@code XA_PREPARE} or second-phase {@code XA_COMMIT} frame a client sends (and
 * everything after it on that connection): the transaction manager then waits in that phase, the
 * moment a crash test kills the server. It reads only the framing of the wire (a four-byte length,
 * then the frame type, docs/protocol.md); bytes from the node pass untouched.
 */
final class XaPhaseHoldingProxy implements AutoCloseable {
    /** Where the transaction manager is held. */
    enum Phase {
        /** Its first prepare: no branch of the node prepared, no decision logged. */
        PREPARE,
        /** Its first two-phase commit: every branch prepared and the decision to commit logged. */
        COMMIT;

        /** Whether a frame (its type byte first) is this phase's call. */
        boolean matches(byte[] frame) {
            int type = frame[0] & 0xFF;
            return switch (this) {
                case PREPARE -> type == XA_PREPARE;
                // onePhase, a boolean byte, is XA_COMMIT's last field
                case COMMIT -> type == XA_COMMIT && frame[frame.length - 1] == 0;
            };
        }
    }

    private static final int XA_PREPARE = 42;
    private static final int XA_COMMIT = 43;

    private final ServerSocket listener;
    private final int nodePort;
    private final AtomicReference<Phase> armed = new AtomicReference<>();
    private volatile CountDownLatch held = new CountDownLatch(1);
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    XaPhaseHoldingProxy(int nodePort) throws IOException {
        this.nodePort = nodePort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Holds the next call of that phase any client sends. */
    void arm(Phase phase) {
        held = new CountDownLatch(1);
        armed.set(phase);
    }

    /** Waits until the armed phase's call is held back; false if none came in time. */
    boolean awaitHeld(long seconds) throws InterruptedException {
        return held.await(seconds, TimeUnit.SECONDS);
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket node = new Socket(InetAddress.getLoopbackAddress(), nodePort);
                client.setTcpNoDelay(true);
                node.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(node);
                start(() -> copyFrames(client, node), "proxy-to-node");
                start(() -> copyBytes(node, client), "proxy-to-client");
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void start(Runnable job, String name) {
        Thread t = new Thread(job, name);
        t.setDaemon(true);
        t.start();
    }

    private void copyFrames(Socket client, Socket node) {
        try (DataInputStream in = new DataInputStream(client.getInputStream())) {
            OutputStream out = node.getOutputStream();
            while (true) {
                int length = in.readInt();
                byte[] frame = new byte[length];
                in.readFully(frame);
                Phase phase = armed.get();
                if (length > 1 && phase != null && phase.matches(frame) && armed.compareAndSet(phase, null)) {
                    held.countDown();
                    drain(in); // nothing more of this connection reaches the node
                    return;
                }
                out.write(
                        new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length
                        });
                out.write(frame);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed: so does the other, below
        } finally {
            closeQuietly(client);
            closeQuietly(node);
        }
    }

    private static void drain(InputStream in) throws IOException {
        byte[] sink = new byte[8192];
        try {
            while (in.read(sink) >= 0) {
                // the server is about to be killed; its bytes go nowhere
            }
        } catch (EOFException e) {
            // gone
        }
    }

    private static void copyBytes(Socket from, Socket to) {
        try {
            from.getInputStream().transferTo(to.getOutputStream());
        } catch (IOException e) {
            // one side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }
}
