package org.partita.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free ports on loopback for the brokers a run starts. */
final class Ports {
    private Ports() {}

    /** A port nothing listens on now (the broker binds it a moment later). */
    static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * A port between 10,000 and the system's first ephemeral port less {@code room}, so that neither
     * it nor the ports up to {@code room} above it is ever handed to an outgoing connection; maybe
     * taken already ({@link #isFree} tells).
     */
    static int belowEphemeral(int room) {
        int low = 32_768; // Linux's default start of the ephemeral range
        try (java.io.BufferedReader in = java.nio.file.Files.newBufferedReader(
                java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            low = Integer.parseInt(in.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException elsewhere) {
            // not Linux, or unreadable: the default
        }
        int high = Math.max(low - room, 10_000 + 1_000);
        return java.util.concurrent.ThreadLocalRandom.current().nextInt(10_000, high);
    }

    /** Whether {@code port} on loopback can be bound now. */
    static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException busy) {
            return false;
        }
    }
}
