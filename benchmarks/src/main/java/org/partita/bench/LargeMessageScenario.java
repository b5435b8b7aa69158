package org.partita.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * S9L, large messages: for each body size ({@link Scenario#LARGE_SIZES_MIB}: 1, 16 and 256 MiB) in turn,
 * one producer sends its count of persistent {@link BytesMessage}s on one connection, each body read from
 * a generated stream through the target's input-stream property ({@link Target#inputStreamProperty()}),
 * so that no body is ever whole in the tool's heap. One consumer on another connection, attached before
 * the clock starts, writes each body through the target's save-stream property ({@link
 * Target#saveStreamProperty()}) into a stream that counts its bytes and compares each one with the
 * pattern it regenerates: a body cut short, too long, with parts out of order or another message's fails
 * the run. A size's clock runs from the start of its first send to the arrival of its last message, whose
 * body is then written; the next size starts once every message of the one before arrived.
 */
final class LargeMessageScenario {
    static final int MIB = 1 << 20;
    /**
     * The bodies repeat a random pattern of this many bytes, a prime: parts of 1 MiB (Partita) or
     * 100 KiB (Artemis) delivered out of order, or another message's body, do not match.
     */
    static final int PERIOD = 65_521;

    private static final byte[] PATTERN = new byte[PERIOD];
    private static final long RECEIVE_TIMEOUT_MS = 100;
    /** After the last message arrived, the consumer keeps receiving this long, so late duplicates are seen. */
    private static final long GRACE_MS = 200;

    static {
        new Random(42).nextBytes(PATTERN);
    }

    private final BrokerUnderTest broker;
    private final Scenarios.Settings settings;

    LargeMessageScenario(BrokerUnderTest broker, Scenarios.Settings settings) {
        this.broker = broker;
        this.settings = settings;
    }

    RunResult run(Scenario s, Target target, int run, int count) throws Exception {
        int[] counts = Scenario.largeCounts(count);
        int[] mib = Scenario.LARGE_SIZES_MIB;
        int[] offsets = new int[counts.length];
        Tally[] sizes = new Tally[counts.length];
        int total = 0;
        for (int z = 0; z < counts.length; z++) {
            offsets[z] = total;
            total += counts[z];
            sizes[z] = new Tally(counts[z]);
        }
        Tally tally = new Tally(total);
        String inputStream = target.inputStreamProperty();
        String saveStream = target.saveStreamProperty();
        Map<String, Double> values = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        Workers workers = new Workers();
        try (Clients clients = new Clients(broker.connectionFactory())) {
            String name = broker.queueName("s9l", "");
            MessageConsumer mc = Scenarios.consumer(clients.open(), name);
            workers.loop("consumer", () -> {
                Message m = mc.receive(RECEIVE_TIMEOUT_MS);
                if (m == null) {
                    return;
                }
                int z = m.getIntProperty("z");
                int seq = m.getIntProperty("s");
                if (z < 0 || z >= counts.length || seq < 0 || seq >= counts[z]) {
                    tally.record(-1); // counted as unexpected
                    return;
                }
                int index = offsets[z] + seq;
                long bytes = (long) mib[z] * MIB;
                String what = mib[z] + " MiB message " + seq;
                BytesMessage b = (BytesMessage) m;
                long length = b.getBodyLength();
                if (length != bytes) {
                    throw new IllegalStateException(what + ": getBodyLength() " + length + ", sent " + bytes);
                }
                PatternCheck body = new PatternCheck(bytes, seed(index));
                b.setObjectProperty(saveStream, body); // returns once the whole body is written
                body.verify(what);
                if (tally.record(index)) {
                    sizes[z].record(seq);
                }
            });
            Scenarios.Sender sender = Scenarios.sender(clients.open(), name, true, false);
            long deadline = System.nanoTime() + settings.timeCapNanos();
            boolean complete = true;
            for (int z = 0; z < counts.length && complete; z++) {
                int size = z;
                long bytes = (long) mib[z] * MIB;
                long start = System.nanoTime();
                Thread producer = workers.start("producer-" + mib[z] + "m", () -> {
                    for (int seq = 0; seq < counts[size] && Scenarios.before(deadline, workers); seq++) {
                        BytesMessage m = sender.session().createBytesMessage();
                        m.setIntProperty("z", size);
                        m.setIntProperty("s", seq);
                        m.setObjectProperty(inputStream, new PatternStream(bytes, seed(offsets[size] + seq)));
                        sender.producer().send(m);
                    }
                });
                complete = sizes[z].await(deadline, workers);
                if (complete) {
                    values.put(
                            Scenario.largeKey(mib[z]),
                            (double) counts[z] * mib[z] / Scenarios.seconds(sizes[z].completedAt() - start));
                    // the next size's producer uses the same session: this one must have returned from its last send
                    Workers.join(List.of(producer), deadline);
                }
            }
            if (complete) {
                Thread.sleep(GRACE_MS);
            }
            workers.stopAndJoin(5_000);
            Throwable failure = workers.failure();
            StringBuilder sent = new StringBuilder();
            for (int z = 0; z < counts.length; z++) {
                sent.append(z == 0 ? "" : ", ")
                        .append(sizes[z].distinct())
                        .append('/')
                        .append(counts[z])
                        .append(" x ")
                        .append(mib[z])
                        .append(" MiB");
            }
            notes.put("largeMessages", sent + ", bodies through " + inputStream + " and " + saveStream);
            return RunResult.tallied(s, target, run, values, tally, complete, notes, failure);
        } finally {
            workers.stopAndJoin(5_000);
        }
    }

    /** Where in the pattern message {@code index}'s body starts: a different place for each message of a run. */
    static int seed(int index) {
        return (int) ((index * 7_919L) % PERIOD);
    }

    /** A body of {@code bytes} bytes: the pattern from {@code seed} on, round and round; nothing held but the pattern. */
    static final class PatternStream extends InputStream {
        private long left;
        private int at;

        PatternStream(long bytes, int seed) {
            this.left = bytes;
            this.at = seed;
        }

        @Override
        public int read() {
            if (left == 0) {
                return -1;
            }
            left--;
            int b = PATTERN[at] & 0xff;
            at = at + 1 == PERIOD ? 0 : at + 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            for (int done = 0; done < n; ) {
                int k = Math.min(n - done, PERIOD - at);
                System.arraycopy(PATTERN, at, b, off + done, k);
                done += k;
                at = (at + k) % PERIOD;
            }
            left -= n;
            return n;
        }
    }

    /**
     * Where a received body is written: counts its bytes and compares them with the pattern a {@link
     * PatternStream} of the same seed sent, keeping the first difference; {@link #verify} tells.
     */
    static final class PatternCheck extends OutputStream {
        private final long expected;
        private long count;
        private int at;
        private long firstDifference = -1;

        PatternCheck(long expected, int seed) {
            this.expected = expected;
            this.at = seed;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            Objects.checkFromIndexSize(off, len, b.length);
            int checked = (int) Math.max(0, Math.min(len, expected - count));
            for (int done = 0; done < checked && firstDifference < 0; ) {
                int k = Math.min(checked - done, PERIOD - at);
                int differs = Arrays.mismatch(b, off + done, off + done + k, PATTERN, at, at + k);
                if (differs >= 0) {
                    firstDifference = count + done + differs;
                }
                done += k;
                at = (at + k) % PERIOD;
            }
            count += len;
        }

        long count() {
            return count;
        }

        /** Fails unless exactly the body sent was written. */
        void verify(String what) {
            if (count != expected) {
                throw new IllegalStateException(
                        what + ": " + count + " bytes written to the stream, " + expected + " sent");
            }
            if (firstDifference >= 0) {
                throw new IllegalStateException(
                        what + ": the body differs from the one sent from byte " + firstDifference);
            }
        }
    }
}
