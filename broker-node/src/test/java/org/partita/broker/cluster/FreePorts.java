package org.partita.broker.cluster;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for test clusters: each free together with the ports {@code offset} and twice
 * {@code offset} above it (a node's consensus port and its replica server's).
 *
 * <p>A cluster's nodes must know each other's ports before any of them starts, so a node cannot bind
 * port 0 and tell the others: the ports are picked free, released, and bound by the nodes a moment
 * later. Two things keep that gap from failing a test. The ports are picked below the system's range
 * of ephemeral ports, so no outgoing connection (the nodes dialing each other, another test's
 * clients) is ever given one meanwhile; only another process that binds a port of its own choosing
 * can take one. And {@link #startOnFreePorts} starts over on new ports when a start fails because a
 * port was taken all the same.
 */
public final class FreePorts {
    private static final int LOWEST = 10_000;
    /** Where Linux starts handing out ephemeral ports unless configured otherwise. */
    private static final int DEFAULT_EPHEMERAL_LOW = 32_768;

    private static final int TRIES = 5;

    private FreePorts() {}

    /** Something started on ports, which throws if a port is taken. */
    @FunctionalInterface
    public interface OnPorts<T> {
        T start(List<Integer> ports) throws Exception;
    }

    /**
     * {@code count} ports, each free together with the ones {@code offset} and twice {@code offset}
     * above it, none of them in the ephemeral range.
     */
    public static List<Integer> pairs(int count, int offset) {
        int below = ephemeralLow();
        if (below - 2 * offset - LOWEST < 10 * count) {
            below = 60_000; // a system whose ephemeral ports start low: pick anywhere, as before
        }
        List<Integer> out = new ArrayList<>();
        List<Integer> taken = new ArrayList<>(); // every port of the nodes picked so far
        while (out.size() < count) {
            int p = ThreadLocalRandom.current().nextInt(LOWEST, below - 2 * offset);
            List<Integer> ports = List.of(p, p + offset, p + 2 * offset);
            if (ports.stream().noneMatch(taken::contains) && ports.stream().allMatch(FreePorts::free)) {
                out.add(p);
                taken.addAll(ports);
            }
        }
        return out;
    }

    /**
     * Calls {@code start} with {@link #pairs}; if it fails because a port was taken between the pick
     * and the bind ({@link #portTaken}), calls it again with new ports, up to five times. Any other
     * failure is thrown at once. {@code start} must let go of what it started before it throws.
     */
    public static <T> T startOnFreePorts(int count, int offset, OnPorts<T> start) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return start.start(pairs(count, offset));
            } catch (Exception | AssertionError e) { // AssertionError: a child node's exit, with its stderr
                if (!portTaken(e) || attempt == TRIES) {
                    throw e;
                }
            }
        }
    }

    /**
     * Whether {@code t} says a port was in use: a {@link BindException} anywhere among its causes, or
     * its words (the node's, Netty's epoll transport's, JGroups'), as a child node prints them.
     */
    public static boolean portTaken(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof BindException
                    || (c.getMessage() != null
                            && (c.getMessage().contains("Address already in use")
                                    || c.getMessage().contains("the address is in use")
                                    || c.getMessage().contains("No available port to bind to")))) {
                return true;
            }
        }
        return false;
    }

    /** The lowest ephemeral port of this system. */
    static int ephemeralLow() {
        // read by line: Files.readString of this file has been seen to return a cut value ("3")
        try (java.io.BufferedReader in = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            String range = in.readLine();
            return Integer.parseInt(range.trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
