package org.partita.broker.core.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** docs/destinations.md, "Topic names": '*' is one level, '>' one or more trailing levels. */
class TopicPatternTest {

    @ParameterizedTest(name = "{0} vs {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            mfg/machine/m-001/state | mfg/machine/m-001/state | true
            mfg/machine/m-001/state | mfg/machine/m-002/state | false
            mfg/machine/*/state     | mfg/machine/m-001/state | true
            mfg/machine/*/state     | mfg/machine/state       | false
            mfg/machine/*/state     | mfg/machine/a/b/state   | false
            mfg/machine/>           | mfg/machine/m-001       | true
            mfg/machine/>           | mfg/machine/m-001/state | true
            mfg/machine/>           | mfg/machine             | false
            mfg/mach*               | mfg/machine             | false
            mfg/mach*               | mfg/mach*               | true
            >                       | anything/at/all         | true
            """)
    void matches(String pattern, String topic, boolean expected) {
        assertEquals(expected, TopicPattern.of(pattern).matches(topic));
    }

    @Test
    void greaterThanOnlyAsTheLastLevel() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TopicPattern.of("a/>/b"));
        assertTrue(e.getMessage().contains("last level"), e.getMessage());
    }

    @Test
    void topicsTakeNoOptionsAndMustHaveAName() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> TopicPattern.of("news?partitions=4"));
        assertTrue(e.getMessage().contains("subscriptions=news"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TopicPattern.of(""));
    }
}
