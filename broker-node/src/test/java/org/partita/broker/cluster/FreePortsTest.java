package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The test clusters' ports: picked where no outgoing connection takes them, and picked again when taken anyway. */
class FreePortsTest {

    @Test
    void pairsAreFreeDistinctAndBelowTheEphemeralRange() throws Exception {
        List<Integer> ports = FreePorts.pairs(5, 1000);
        Set<Integer> all = new HashSet<>();
        for (int p : ports) {
            all.add(p);
            all.add(p + 1000);
            assertTrue(p + 1000 < FreePorts.ephemeralLow(), p + " or its pair could be an outgoing connection's port");
            try (ServerSocket s = bind(p);
                    ServerSocket t = bind(p + 1000)) {
                assertTrue(s.isBound() && t.isBound());
            }
        }
        assertEquals(10, all.size(), "no port is used twice, nor as another's pair: " + ports);
    }

    @Test
    void aStartThatFindsAPortTakenStartsOverOnNewPorts() throws Exception {
        List<List<Integer>> tried = new ArrayList<>();
        List<ServerSocket> thieves = new ArrayList<>();
        try {
            int bound = FreePorts.startOnFreePorts(2, 1000, ports -> {
                tried.add(ports);
                if (tried.size() == 1) {
                    thieves.add(bind(ports.get(1))); // taken by someone else after it was picked
                }
                try (ServerSocket a = bind(ports.get(0));
                        ServerSocket b = bind(ports.get(1))) {
                    return b.getLocalPort();
                }
            });
            assertEquals(2, tried.size());
            assertNotEquals(tried.get(0), tried.get(1));
            assertEquals(tried.get(1).get(1), bound);
        } finally {
            for (ServerSocket s : thieves) {
                s.close();
            }
        }
    }

    @Test
    void anyOtherFailureIsNotRetried() {
        List<List<Integer>> tried = new ArrayList<>();
        IllegalStateException boom = new IllegalStateException("the node's config is wrong");
        assertSame(
                boom,
                assertThrows(
                        IllegalStateException.class,
                        () -> FreePorts.startOnFreePorts(1, 1000, ports -> {
                            tried.add(ports);
                            throw boom;
                        })));
        assertEquals(1, tried.size());
    }

    @Test
    void aTakenPortIsRecognisedDeepInTheCausesOrByItsWords() {
        assertTrue(FreePorts.portTaken(new RuntimeException("start failed", new IOException(new BindException()))));
        assertTrue(FreePorts.portTaken(new IOException("bind(..) failed: Address already in use")));
        assertFalse(FreePorts.portTaken(new IOException("Connection refused")));
    }

    private static ServerSocket bind(int port) throws IOException {
        return new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
    }
}
