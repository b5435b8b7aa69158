package org.partita.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** S9L's counts and rows, and its bodies: generated on the fly, and every difference on arrival caught. */
class LargeMessageScenarioTest {
    private static final Scenarios.Settings SETTINGS = new Scenarios.Settings(Scenarios.nanos(10), 500, 50);

    @Test
    void theCountIsSharedFortyTenTwoWithAtLeastOneOfEachSize() {
        assertEquals(52, Scenario.S9L.count(1.0));
        assertArrayEquals(new int[] {40, 10, 2}, Scenario.largeCounts(Scenario.S9L.count(1.0)));
        assertArrayEquals(new int[] {80, 20, 4}, Scenario.largeCounts(Scenario.S9L.count(2.0)));
        assertArrayEquals(new int[] {20, 5, 1}, Scenario.largeCounts(Scenario.S9L.count(0.5)));
        assertEquals(3, Scenario.S9L.count(0.01));
        assertArrayEquals(new int[] {1, 1, 1}, Scenario.largeCounts(Scenario.S9L.count(0.01)));
        assertArrayEquals(new int[] {3, 1, 1}, Scenario.largeCounts(Scenario.S9L.count(0.1)));
    }

    @Test
    void rowsAreTheThroughputOfEachSizeAndTheBrokersHeapWithoutLatency() {
        List<Scenario.Row> rows = Scenario.S9L.rows(SETTINGS);
        assertEquals(
                List.of("S9L.1m", "S9L.16m", "S9L.256m", "S9L.heap"),
                rows.stream().map(Scenario.Row::key).toList());
        assertTrue(rows.subList(0, 3).stream()
                .allMatch(r -> r.higherIsBetter() && r.unit().equals("MiB/s")));
        assertFalse(rows.get(3).higherIsBetter());
        assertEquals(Scenario.S9L.brokerHeapKey(), rows.get(3).key());
        assertTrue(Scenario.S9L.reportsBrokerHeap());
        assertFalse(Scenario.S1.reportsBrokerHeap());
        assertEquals("S1.p99", Scenario.S1.rows(SETTINGS).get(2).key(), "the others keep their latency rows");
    }

    @Test
    void notADefaultScenario() {
        assertFalse(new Compare().scenarioIds.contains("S9L"));
        assertEquals(Scenario.S9L, Scenario.fromId("s9l"));
    }

    @Test
    void eachTargetSendsAndSavesThroughItsOwnStreamProperties() {
        assertEquals("JMS_PARTITA_InputStream", Target.PARTITA.inputStreamProperty());
        assertEquals("JMS_PARTITA_SaveStream", Target.PARTITA.saveStreamProperty());
        assertEquals("JMS_AMQ_InputStream", Target.ARTEMIS_TUNED.inputStreamProperty());
        assertEquals("JMS_AMQ_SaveStream", Target.ARTEMIS_DEFAULT.saveStreamProperty());
    }

    @Test
    void aBodyReadInPiecesOfAnySizeMatchesItsCheck() throws IOException {
        long size = 3L * LargeMessageScenario.PERIOD + 12_345;
        int seed = LargeMessageScenario.seed(7);
        LargeMessageScenario.PatternCheck check = new LargeMessageScenario.PatternCheck(size, seed);
        copy(new LargeMessageScenario.PatternStream(size, seed), check, 100_000);
        check.verify("whole");
        assertEquals(size, check.count());

        LargeMessageScenario.PatternCheck bytewise = new LargeMessageScenario.PatternCheck(70_000, seed);
        try (InputStream in = new LargeMessageScenario.PatternStream(70_000, seed)) {
            for (int b; (b = in.read()) >= 0; ) {
                bytewise.write(b);
            }
        }
        bytewise.verify("byte by byte");
    }

    @Test
    void aChangedShortLongReorderedOrOtherMessagesBodyFailsItsCheck() throws IOException {
        int mib = LargeMessageScenario.MIB;
        int seed = LargeMessageScenario.seed(3);
        byte[] body = new LargeMessageScenario.PatternStream(4L * mib, seed).readAllBytes();
        assertEquals(4 * mib, body.length);

        byte[] changed = body.clone();
        changed[2 * mib + 5] ^= 1;
        assertFails(changed, seed, 4L * mib, "from byte " + (2 * mib + 5));
        assertFails(java.util.Arrays.copyOf(body, 4 * mib - 1), seed, 4L * mib, "bytes written");
        assertFails(java.util.Arrays.copyOf(body, 4 * mib + 1), seed, 4L * mib, "bytes written");
        byte[] swapped = body.clone(); // the second and third 1 MiB parts swapped
        System.arraycopy(body, 2 * mib, swapped, mib, mib);
        System.arraycopy(body, mib, swapped, 2 * mib, mib);
        assertFails(swapped, seed, 4L * mib, "differs");
        assertFails(body, LargeMessageScenario.seed(4), 4L * mib, "differs");
    }

    private static void assertFails(byte[] received, int seed, long sent, String why) {
        LargeMessageScenario.PatternCheck check = new LargeMessageScenario.PatternCheck(sent, seed);
        check.write(received, 0, received.length);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> check.verify("m"));
        assertTrue(e.getMessage().contains(why), e::getMessage);
    }

    private static void copy(InputStream in, java.io.OutputStream out, int chunk) throws IOException {
        byte[] buffer = new byte[chunk];
        for (int n; (n = in.read(buffer, 0, buffer.length)) >= 0; ) {
            out.write(buffer, 0, n);
        }
        assertEquals(-1, in.read(buffer, 0, 1));
    }
}
