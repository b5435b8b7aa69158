package org.partita.jms.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.jms.transport.NodeAddress;

/** README, "Connection factory URL": one node or several, options after the last one. */
class ConnectionOptionsTest {

    @Test
    void oneNodeDoesNotFailOver() throws JMSException {
        ConnectionOptions o = ConnectionOptions.parse("tcp://broker.example:7000?prefetch=10");
        assertEquals(List.of(new NodeAddress("broker.example", 7000)), o.nodes());
        assertFalse(o.failsOver());
        assertEquals(10, o.prefetch());
        assertEquals(30_000, o.failoverTimeoutMillis());
    }

    @Test
    void severalNodesInOrderShareTheOptionsAfterTheLast() throws JMSException {
        ConnectionOptions o = ConnectionOptions.parse(
                "tcp://127.0.0.1:61700, tcp://10.0.0.2,tcp://[::1]:61702?clientID=app&failoverTimeout=5000&prefetch=7");
        assertEquals(
                List.of(
                        new NodeAddress("127.0.0.1", 61700),
                        new NodeAddress("10.0.0.2", 61700),
                        new NodeAddress("[::1]", 61702)),
                o.nodes());
        assertTrue(o.failsOver());
        assertEquals("app", o.clientId());
        assertEquals(5_000, o.failoverTimeoutMillis());
        assertEquals(7, o.prefetch());
    }

    @Test
    void theHeartbeatIsTenSecondsUnlessSaidAndZeroTurnsItOff() throws JMSException {
        assertEquals(10_000, ConnectionOptions.parse("tcp://a:1").heartbeatMillis());
        assertEquals(2_500, ConnectionOptions.parse("tcp://a:1?heartbeat=2500").heartbeatMillis());
        assertEquals(0, ConnectionOptions.parse("tcp://a:1?heartbeat=0").heartbeatMillis());
        JMSException bad = assertThrows(JMSException.class, () -> ConnectionOptions.parse("tcp://a:1?heartbeat=-1"));
        assertTrue(bad.getMessage().contains("heartbeat"), bad.getMessage());
    }

    @Test
    void theGreetingTimeoutIsThreeSecondsUnlessSaidAndZeroLeavesOnlyTheConnectTimeout() throws JMSException {
        assertEquals(3_000, ConnectionOptions.parse("tcp://a:1").greetingTimeoutMillis());
        assertEquals(
                500, ConnectionOptions.parse("tcp://a:1?greetingTimeout=500").greetingTimeoutMillis());
        assertEquals(0, ConnectionOptions.parse("tcp://a:1?greetingTimeout=0").greetingTimeoutMillis());
        JMSException bad =
                assertThrows(JMSException.class, () -> ConnectionOptions.parse("tcp://a:1?greetingTimeout=soon"));
        assertTrue(bad.getMessage().contains("greetingTimeout"), bad.getMessage());
    }

    @Test
    void aFailoverTimeoutOfZeroTriesForEver() throws JMSException {
        assertEquals(
                0,
                ConnectionOptions.parse("tcp://a:1,tcp://b:2?failoverTimeout=0").failoverTimeoutMillis());
    }

    @Test
    void aBadNodeInTheListIsNamed() {
        JMSException e = assertThrows(JMSException.class, () -> ConnectionOptions.parse("tcp://a:1,http://b:2"));
        assertTrue(e.getMessage().contains("'http://b:2'"), e.getMessage());
    }

    @Test
    void optionsBeforeTheLastNodeAreRefusedSayingWhereTheyGo() {
        JMSException e =
                assertThrows(JMSException.class, () -> ConnectionOptions.parse("tcp://a:1?prefetch=5,tcp://b:2"));
        assertTrue(e.getMessage().contains("after the last node"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp://a:1,,tcp://b:2", "tcp://a:1,", ",tcp://a:1"})
    void anEmptyNodeIsRefused(String url) {
        JMSException e = assertThrows(JMSException.class, () -> ConnectionOptions.parse(url));
        assertTrue(e.getMessage().contains("empty node"), e.getMessage());
    }

    @Test
    void aBadFailoverTimeoutIsRefused() {
        JMSException e = assertThrows(
                JMSException.class, () -> ConnectionOptions.parse("tcp://a:1,tcp://b:2?failoverTimeout=soon"));
        assertTrue(e.getMessage().contains("failoverTimeout"), e.getMessage());
    }

    @Test
    void aMissingTrustStoreIsAJmsExceptionNamingTheOption() {
        PartitaConnectionFactory cf =
                new PartitaConnectionFactory("ssl://127.0.0.1:1?trustStore=/no/such/trust.p12&connectTimeout=1000");
        JMSException e = assertThrows(JMSException.class, cf::createConnection);
        assertTrue(e.getMessage().contains("option trustStore: cannot read /no/such/trust.p12"), e.getMessage());
    }
}
