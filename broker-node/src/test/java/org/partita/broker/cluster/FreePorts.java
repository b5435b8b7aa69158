package org.partita.broker.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Loopback ports for test clusters: each free together with the port {@code offset} above it. */
public final class FreePorts {
    private FreePorts() {}

    public static List<Integer> pairs(int count, int offset) {
        List<Integer> out = new ArrayList<>();
        while (out.size() < count) {
            int p = ThreadLocalRandom.current().nextInt(20_000, 60_000 - offset);
            if (!out.contains(p) && !out.contains(p + offset) && free(p) && free(p + offset)) {
                out.add(p);
            }
        }
        return out;
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
