package org.partita.broker.store.journal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreCounters;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.h2.H2MessageStore;

/**
 * A measurement, not a check: how long a persistent send waits for its group commit while the
 * journal is checkpointed into H2. Producers fill a backlog (nothing is acknowledged, so every
 * checkpoint moves its whole journal into H2), each waiting for its confirmation like a JMS
 * producer. Prints the waits' percentiles and the longest wait; run with
 * {@code -Dtest=CheckpointPauseProbe -Dpartita.probe=true [-Dpartita.probe.messages=120000]}.
 */
@Tag("slow")
@EnabledIfSystemProperty(named = "partita.probe", matches = "true")
class CheckpointPauseProbe {
    private static final int PRODUCERS = 4;
    private static final int PAYLOAD = 1024;

    @TempDir
    Path tmp;

    @Test
    void longestSendWaitWhileCheckpointing() throws Exception {
        int messages = Integer.getInteger("partita.probe.messages", 120_000);
        H2MessageStore store = H2MessageStore.open(tmp.resolve("node"), true);
        try {
            AtomicLong nextId = new AtomicLong();
            long[][] waits = new long[PRODUCERS][];
            List<Thread> producers = new ArrayList<>();
            long started = System.nanoTime();
            for (int p = 0; p < PRODUCERS; p++) {
                int me = p;
                Thread t = new Thread(() -> waits[me] = produce(store, nextId, messages));
                producers.add(t);
                t.start();
            }
            for (Thread t : producers) {
                t.join();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            long[] all = Arrays.stream(waits)
                    .flatMapToLong(Arrays::stream)
                    .filter(w -> w > 0)
                    .sorted()
                    .toArray();
            StoreCounters f = store.counters().orElseThrow();
            System.out.printf(
                    "PROBE messages=%d seconds=%.1f msg/s=%.0f wait p50=%.2fms p99=%.2fms p99.9=%.2fms max=%.1fms"
                            + " checkpoints=%d checkpointMs=%.0f syncs=%d writerWaitedForCheckpointsMs=%.0f longest=%.0f"
                            + " writerAllocatedMiB=%d%n",
                    all.length,
                    seconds,
                    all.length / seconds,
                    ms(all, 0.5),
                    ms(all, 0.99),
                    ms(all, 0.999),
                    all[all.length - 1] / 1e6,
                    f.checkpoints(),
                    f.checkpointNanos() / 1e6,
                    f.syncs(),
                    f.checkpointWaitNanos() / 1e6,
                    f.longestCheckpointWaitNanos() / 1e6,
                    f.writerAllocatedBytes() >> 20);
        } finally {
            store.close();
        }
    }

    private static long[] produce(H2MessageStore store, AtomicLong nextId, int messages) {
        List<Long> waits = new ArrayList<>();
        long id;
        while ((id = nextId.incrementAndGet()) <= messages) {
            byte[] payload = new byte[PAYLOAD];
            Arrays.fill(payload, (byte) id);
            StoreBatch send =
                    new StoreBatch().add(new StoreOp.InsertMessage(id, payload)).add(new StoreOp.InsertEntry("q", id));
            long t0 = System.nanoTime();
            try {
                store.write(send).get(120, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            waits.add(System.nanoTime() - t0);
        }
        return waits.stream().mapToLong(Long::longValue).toArray();
    }

    private static double ms(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))] / 1e6;
    }
}
