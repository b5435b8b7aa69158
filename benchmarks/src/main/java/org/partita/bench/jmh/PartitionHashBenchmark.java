package org.partita.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.partita.protocol.PartitionKeys;

/** The key-to-partition hash (FNV-1a 32 over UTF-8, mod P) over the 120 keys of scenario S4 and a long key. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PartitionHashBenchmark {
    private String[] keys;
    private int next;
    private String longKey;

    @Setup
    public void setup() {
        keys = new String[120];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = String.format("m-%03d", i + 1);
        }
        longKey = "customer-7f3a9c1e-4b2d-4e8f-9a6b-0c5d7e1f2a3b/order-000123456789";
    }

    @Benchmark
    public int shortKey() {
        String k = keys[next];
        next = next + 1 == keys.length ? 0 : next + 1;
        return PartitionKeys.partition(k, 8);
    }

    @Benchmark
    public int longKey() {
        return PartitionKeys.partition(longKey, 8);
    }
}
