package org.partita.broker.security;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How long a login for one address and user name must wait after failed attempts: nothing after a
 * success, then {@code base * 2^(failures-1)}, capped at {@code max}. The delay slows a password
 * guesser down to a few attempts a minute per user and address without locking the real user out
 * (an account lock would let anyone lock anyone out). Failures are forgotten {@code forgetAfter}
 * after the last one; the table is bounded so that many addresses cannot exhaust memory.
 */
public final class LoginDelays {
    private static final int MAX_KEYS = 10_000;

    private record Key(String address, String user) {}

    private record Failures(int count, long lastNanos) {}

    private final long baseNanos;
    private final long maxNanos;
    private final long forgetAfterNanos;
    private final LongSupplier clock;
    private final Map<Key, Failures> failures = new ConcurrentHashMap<>();

    public LoginDelays(long baseMillis, long maxMillis, long forgetAfterMillis, LongSupplier nanoClock) {
        this.baseNanos = baseMillis * 1_000_000L;
        this.maxNanos = maxMillis * 1_000_000L;
        this.forgetAfterNanos = forgetAfterMillis * 1_000_000L;
        this.clock = nanoClock;
    }

    /** 250 ms after one failure, doubling to at most 10 s; forgotten after 15 minutes. */
    public static LoginDelays defaults() {
        return new LoginDelays(250, 10_000, 15 * 60_000, System::nanoTime);
    }

    /** How long, in milliseconds from now, an attempt for this address and user must wait before it is checked. */
    public long waitMillis(String address, String user) {
        Failures f = failures.get(new Key(address, user == null ? "" : user));
        if (f == null) {
            return 0;
        }
        long now = clock.getAsLong();
        if (now - f.lastNanos() > forgetAfterNanos) {
            return 0;
        }
        long until = f.lastNanos() + delayNanos(f.count());
        return Math.max(0, (until - now + 999_999) / 1_000_000);
    }

    /** Counts a failure; returns the delay, in milliseconds, its refusal is answered after. */
    public long failed(String address, String user) {
        Key key = new Key(address, user == null ? "" : user);
        long now = clock.getAsLong();
        if (failures.size() >= MAX_KEYS && !failures.containsKey(key)) {
            forgetOld(now);
        }
        Failures f = failures.compute(
                key,
                (k, old) -> new Failures(
                        old == null || now - old.lastNanos() > forgetAfterNanos ? 1 : old.count() + 1, now));
        return delayNanos(f.count()) / 1_000_000;
    }

    public void succeeded(String address, String user) {
        failures.remove(new Key(address, user == null ? "" : user));
    }

    private long delayNanos(int count) {
        int shift = Math.min(count - 1, 30);
        return Math.min(maxNanos, baseNanos << shift);
    }

    /** Makes room: drops expired entries and, if the table is still full, half of the others (whichever come first). */
    private void forgetOld(long now) {
        failures.values().removeIf(f -> now - f.lastNanos() > forgetAfterNanos);
        if (failures.size() >= MAX_KEYS) {
            Iterator<Failures> it = failures.values().iterator();
            for (int i = 0; it.hasNext() && i < MAX_KEYS / 2; i++) {
                it.next();
                it.remove();
            }
        }
    }
}
