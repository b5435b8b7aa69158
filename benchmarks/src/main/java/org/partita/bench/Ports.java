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

    /** Whether {@code port} on loopback can be bound now. */
    static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException busy) {
            return false;
        }
    }
}
