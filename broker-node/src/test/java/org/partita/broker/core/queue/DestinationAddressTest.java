package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/destinations.md: a name, then queue and consumer options after '?'. */
class DestinationAddressTest {

    @Test
    void aPlainNameHasNoOptions() {
        DestinationAddress a = DestinationAddress.parse("orders");
        assertEquals("orders", a.name());
        assertEquals("", a.queueOptions());
        assertEquals(Map.of(), a.consumerOptions());
        assertEquals(0, a.priority());
    }

    @Test
    void queueAndConsumerOptionsAreSplitAndDecoded() {
        DestinationAddress a = DestinationAddress.parse(
                "orders?partitions=8&priority=10&capacity=20&appIds=a%2Cb&subscriptions=mfg/>");
        assertEquals("orders", a.name());
        assertEquals("partitions=8&appIds=a,b&subscriptions=mfg/>", a.queueOptions());
        assertEquals(10, a.priority());
        assertEquals(20, a.capacity());
        assertEquals(0, a.capacityBytes());
    }

    @Test
    void theConsumerNameKeepsOnlyConsumerOptions() {
        assertEquals(
                "orders",
                DestinationAddress.parse("orders?partitions=4&hosts=n1,n2").consumerName());
        assertEquals(
                "orders?priority=10&appId=a%26b",
                DestinationAddress.parse("orders?partitions=4&priority=10&appId=a%26b")
                        .consumerName());
        assertEquals(
                "a&b",
                DestinationAddress.parse(
                                DestinationAddress.parse("orders?appId=a%26b").consumerName())
                        .consumerOptions()
                        .get("appId"));
    }

    @Test
    void badNamesAndOptionsAreRefusedSayingWhat() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> DestinationAddress.parse("orders?colour=red"));
        assertTrue(e.getMessage().contains("unknown option 'colour'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DestinationAddress.parse("?partitions=2"));
        assertTrue(e.getMessage().contains("no name"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DestinationAddress.parse("q?x"));
        assertTrue(e.getMessage().contains("has no value"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> DestinationAddress.parse("q?priority=high").priority());
        assertTrue(e.getMessage().contains("priority"), e.getMessage());
    }

    @Test
    void capacityBytesMayExceedAnInt() {
        assertEquals(
                1L << 40,
                DestinationAddress.parse("q?capacityBytes=" + (1L << 40)).capacityBytes());
        assertThrows(
                IllegalArgumentException.class,
                () -> DestinationAddress.parse("q?capacity=" + (1L << 40)).capacity());
    }
}
