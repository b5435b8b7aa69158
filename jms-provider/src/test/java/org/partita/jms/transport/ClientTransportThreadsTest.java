package org.partita.jms.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * README, "Connection factory URL": the connections of a JVM share half the cores as event loops (at
 * least one) unless {@code -Dpartita.client.ioThreads=N} asks for another count; a value that is not a
 * positive integer falls back to the default.
 */
class ClientTransportThreadsTest {
    @Test
    void halfTheCoresAtLeastOneByDefault() {
        assertEquals(1, ClientTransportThreads.count(null, 1));
        assertEquals(1, ClientTransportThreads.count(null, 2));
        assertEquals(4, ClientTransportThreads.count(null, 8));
    }

    @Test
    void thePropertySaysHowMany() {
        assertEquals(3, ClientTransportThreads.count("3", 2));
        assertEquals(6, ClientTransportThreads.count(" 6 ", 64));
    }

    @Test
    void aValueThatIsNotAPositiveIntegerFallsBackToTheDefault() {
        assertEquals(4, ClientTransportThreads.count("four", 8));
        assertEquals(4, ClientTransportThreads.count("0", 8));
        assertEquals(1, ClientTransportThreads.count("-2", 2));
    }
}
