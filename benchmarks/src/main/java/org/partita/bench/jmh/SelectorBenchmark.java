package org.partita.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.partita.protocol.WireMessage;
import org.partita.protocol.selector.Selector;
import org.partita.protocol.selector.SelectorException;
import org.partita.protocol.selector.WireMessageContext;

/** The selector evaluator: parsed once, {@code matches} once per message, as a node does for each consumer. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SelectorBenchmark {

    @Param({
        "region = 'emea'",
        "region IN ('apac', 'emea') AND s BETWEEN 10000 AND 20000",
        "JMSPriority > 3 AND JMSXGroupID LIKE 'm-0%' AND NOT (p = 1 OR region IS NULL)",
        "(s / 7) * 2 + p >= 1000 AND JMSDeliveryMode = 'PERSISTENT'"
    })
    public String text;

    private Selector selector;
    private WireMessage message;
    private WireMessageContext context;

    @Setup
    public void setup() throws SelectorException {
        selector = Selector.parse(text);
        message = CodecBenchmark.sample();
        context = new WireMessageContext(message, 1);
        if (!selector.matches(context)) {
            throw new IllegalStateException("the sample message should match " + text);
        }
    }

    @Benchmark
    public boolean matches() {
        return selector.matches(context);
    }

    /** The same with a new context per message, as when each delivery is checked. */
    @Benchmark
    public boolean matchesWithNewContext() {
        return selector.matches(new WireMessageContext(message, 1));
    }

    @Benchmark
    public Selector parse() throws SelectorException {
        return Selector.parse(text);
    }
}
