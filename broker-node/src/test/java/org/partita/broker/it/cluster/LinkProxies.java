package org.partita.broker.it.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * TCP proxies between the nodes of a test cluster, so that links can be cut while every node runs:
 * each node is reached by the others only through its proxy (its entry in {@code cluster.nodes}
 * names the proxy's ports; the node listens on ports of its own, where the test's clients connect
 * directly). A cut between two nodes is a black hole, as a failed switch or firewall makes it:
 * bytes on their way stop in both directions (held, delivered if the cut heals while the
 * connection lives) and new connections hang unanswered, so each side notices only by its own
 * timeouts.
 *
 * <p>Every node dials from the same loopback address, so which node opened a connection is read
 * from Linux's socket tables: the connecting socket's inode in {@code /proc/net/tcp6} (or
 * {@code tcp}), found among the open files of the node processes. A connection from anything else
 * (the test itself) is never cut.
 */
final class LinkProxies implements AutoCloseable {
    /** The ports of one node, each proxied: its client and link port, consensus port, replica port. */
    private final int[] offsets;

    private final List<ServerSocket> listeners = new ArrayList<>();
    private final Set<Pipe> pipes = ConcurrentHashMap.newKeySet();
    /** Cut pairs of node indices, each as "low-high". */
    private final Set<String> cut = ConcurrentHashMap.newKeySet();
    /** The process id of node i now; -1 while it is down. */
    private final IntFunction<Long> pidOf;

    private final int nodes;
    private volatile boolean closed;

    /**
     * @param advertised where the others reach node i (the base of its port block)
     * @param real       where node i listens
     * @param offsets    the ports of a block, as offsets from its base (0, the consensus offset, twice it)
     * @param pidOf      the process id of node i now, or -1 while it is down
     */
    LinkProxies(List<Integer> advertised, List<Integer> real, int[] offsets, IntFunction<Long> pidOf)
            throws IOException {
        this.offsets = offsets.clone();
        this.pidOf = pidOf;
        this.nodes = advertised.size();
        for (int i = 0; i < nodes; i++) {
            for (int offset : offsets) {
                ServerSocket s = new ServerSocket();
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), advertised.get(i) + offset));
                listeners.add(s);
                int target = i;
                int upstream = real.get(i) + offset;
                Thread t = new Thread(() -> accept(s, target, upstream), "proxy-node" + (i + 1) + "-" + offset);
                t.setDaemon(true);
                t.start();
            }
        }
    }

    /** Cuts node {@code i} off from every other node (its clients still reach it). */
    void isolate(int i) {
        for (int j = 0; j < nodes; j++) {
            if (j != i) {
                cut.add(pair(i, j));
            }
        }
    }

    /** Every link works again; what was held goes on. */
    void healAll() {
        cut.clear();
        synchronized (this) {
            notifyAll();
        }
    }

    private static String pair(int a, int b) {
        return Math.min(a, b) + "-" + Math.max(a, b);
    }

    private boolean isCut(int from, int to) {
        return from >= 0 && cut.contains(pair(from, to));
    }

    /** Waits while the link is cut (or until the proxies close). */
    private void passWhenLinked(int from, int to) throws InterruptedException {
        synchronized (this) {
            while (!closed && isCut(from, to)) {
                wait(1_000);
            }
        }
    }

    private void accept(ServerSocket server, int target, int upstreamPort) {
        while (!closed) {
            Socket in;
            try {
                in = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Thread t = new Thread(() -> connect(in, target, upstreamPort), "proxy-conn");
            t.setDaemon(true);
            t.start();
        }
    }

    private void connect(Socket in, int target, int upstreamPort) {
        int from = nodeDialing(in.getPort(), in.getLocalPort());
        try {
            passWhenLinked(from, target); // a connection across a cut hangs unanswered
            if (closed) {
                in.close();
                return;
            }
            Socket out = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
            in.setTcpNoDelay(true);
            out.setTcpNoDelay(true);
            Pipe pipe = new Pipe(in, out);
            pipes.add(pipe);
            pump(pipe, in, out, from, target);
            pump(pipe, out, in, from, target);
        } catch (IOException | InterruptedException e) {
            closeQuietly(in);
        }
    }

    private void pump(Pipe pipe, Socket src, Socket dst, int from, int to) {
        Thread t = new Thread(
                () -> {
                    byte[] buf = new byte[64 * 1024];
                    try (InputStream i = src.getInputStream();
                            OutputStream o = dst.getOutputStream()) {
                        for (int n; (n = i.read(buf)) >= 0; ) {
                            passWhenLinked(from, to); // held while cut: TCP's own buffers fill behind it
                            o.write(buf, 0, n);
                        }
                    } catch (IOException | InterruptedException e) {
                        // one side closed: the pipe ends
                    } finally {
                        pipe.close();
                        pipes.remove(pipe);
                    }
                },
                "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** The node whose process holds the socket that dialed from {@code port} to {@code proxyPort}; -1 if none. */
    private int nodeDialing(int port, int proxyPort) {
        String inode = inodeOf(port, proxyPort);
        if (inode == null) {
            return -1;
        }
        String link = "socket:[" + inode + "]";
        for (int i = 0; i < nodes; i++) {
            long pid = pidOf.apply(i);
            if (pid > 0 && holds(pid, link)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean holds(long pid, String link) {
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().equals(link);
                } catch (IOException e) {
                    return false; // closed meanwhile
                }
            });
        } catch (IOException e) {
            return false;
        }
    }

    /** The inode of the socket bound to local {@code port} and connected to {@code remotePort}, from /proc/net. */
    private static String inodeOf(int port, int remotePort) {
        String local = String.format(":%04X", port);
        String remote = String.format(":%04X", remotePort);
        for (String table : List.of("/proc/net/tcp6", "/proc/net/tcp")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[1].endsWith(local) && f[2].endsWith(remote)) {
                        return f[9];
                    }
                }
            } catch (IOException e) {
                // no IPv6 table on this system: the other one
            }
        }
        return null;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** Both sockets of one proxied connection. */
    private record Pipe(Socket a, Socket b) {
        void close() {
            closeQuietly(a);
            closeQuietly(b);
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            notifyAll();
        }
        for (ServerSocket s : listeners) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        pipes.forEach(Pipe::close);
    }
}
