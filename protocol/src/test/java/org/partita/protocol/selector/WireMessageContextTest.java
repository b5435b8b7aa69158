package org.partita.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.partita.protocol.WireMessage;

/** Header and property identifiers of a {@link WireMessage}. */
class WireMessageContextTest {

    private static WireMessage message(int deliveryMode, String correlationId, Map<String, Object> properties) {
        return new WireMessage(
                "ID:abc-1",
                1_700_000_000_000L,
                correlationId,
                "queue://replies",
                "queue://orders",
                "order.created",
                deliveryMode,
                7,
                1_800_000_000_000L,
                1_700_000_000_500L,
                properties,
                WireMessage.BODY_TEXT,
                new byte[0]);
    }

    private static final Map<String, Object> PROPS = new HashMap<>();

    static {
        PROPS.put("color", "red");
        PROPS.put("weight", 2.5d);
        PROPS.put("count", (short) 3);
        PROPS.put("JMSXGroupID", "group-1");
        PROPS.put("JMSXUserID", "alice");
        PROPS.put("JMS_partita_region", "eu");
        PROPS.put("JMSExpiration", 5L);
        PROPS.put("JMSCustom", "hidden");
    }

    private static final SelectorContext PERSISTENT =
            new WireMessageContext(message(WireMessage.PERSISTENT, "corr-9", PROPS), 3);
    private static final SelectorContext NON_PERSISTENT =
            new WireMessageContext(message(WireMessage.NON_PERSISTENT, null, Map.of()), 1);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            JMSDeliveryMode = 'PERSISTENT'                  | true
            JMSDeliveryMode <> 'NON_PERSISTENT'             | true
            JMSDeliveryMode = 2                             | false
            JMSDeliveryMode IN ('PERSISTENT')               | true
            JMSPriority = 7                                 | true
            JMSPriority > 4 AND JMSPriority <= 9            | true
            JMSPriority BETWEEN 0 AND 4                     | false
            JMSMessageID = 'ID:abc-1'                       | true
            JMSMessageID LIKE 'ID:%'                        | true
            JMSTimestamp = 1700000000000                    | true
            JMSTimestamp > 1699999999999.5                  | true
            JMSTimestamp / 1000 = 1700000000                | true
            JMSCorrelationID = 'corr-9'                     | true
            JMSType = 'order.created'                       | true
            JMSType LIKE 'order._reated'                    | true
            JMSType IN ('order.created', 'order.deleted')   | true
            JMSXDeliveryCount = 3                           | true
            JMSXDeliveryCount > 1                           | true
            JMSXGroupID = 'group-1'                         | true
            JMSXUserID = 'alice'                            | true
            JMS_partita_region = 'eu'                       | true
            color = 'red' AND weight > 2 AND count = 3      | true
            missing IS NULL                                 | true
            jmsPriority IS NULL                             | true
            JMSExpiration IS NULL                           | true
            JMSDeliveryTime IS NULL                         | true
            JMSDestination IS NULL                          | true
            JMSReplyTo IS NULL                              | true
            JMSRedelivered IS NULL                          | true
            JMSCustom IS NULL                               | true
            """)
    void persistentMessage(String selector, boolean expected) throws SelectorException {
        assertEquals(expected, Selector.parse(selector).matches(PERSISTENT), selector);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            JMSDeliveryMode = 'NON_PERSISTENT'              | true
            JMSDeliveryMode = 'PERSISTENT'                  | false
            JMSCorrelationID IS NULL                        | true
            JMSCorrelationID = 'x'                          | false
            NOT (JMSCorrelationID = 'x')                    | false
            JMSXDeliveryCount = 1                           | true
            JMSXGroupID IS NULL                             | true
            color IS NULL                                   | true
            """)
    void nonPersistentMessageWithoutProperties(String selector, boolean expected) throws SelectorException {
        assertEquals(expected, Selector.parse(selector).matches(NON_PERSISTENT), selector);
    }

    @Test
    void valuesHaveTheSpecifiedTypes() {
        assertEquals("PERSISTENT", PERSISTENT.value("JMSDeliveryMode"));
        assertEquals(7, PERSISTENT.value("JMSPriority"));
        assertEquals(1_700_000_000_000L, PERSISTENT.value("JMSTimestamp"));
        assertEquals(3, PERSISTENT.value("JMSXDeliveryCount"));
        assertEquals((short) 3, PERSISTENT.value("count"));
        assertNull(PERSISTENT.value("JMSExpiration"));
        assertNull(PERSISTENT.value("JMSCustom"));
    }

    @Test
    void deliveryCountComesFromTheDeliveryNotTheProperties() throws SelectorException {
        Map<String, Object> props = Map.of("JMSXDeliveryCount", 99);
        SelectorContext ctx = new WireMessageContext(message(WireMessage.PERSISTENT, null, props), 2);
        assertEquals(true, Selector.parse("JMSXDeliveryCount = 2").matches(ctx));
    }

    @Test
    void nullPropertyMapMeansNoProperties() throws SelectorException {
        SelectorContext ctx = new WireMessageContext(message(WireMessage.PERSISTENT, null, null), 1);
        assertEquals(true, Selector.parse("color IS NULL AND JMSPriority = 7").matches(ctx));
    }
}
