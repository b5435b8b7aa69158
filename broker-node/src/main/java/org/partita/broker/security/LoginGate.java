package org.partita.broker.security;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where logins are checked. A password check costs tens of milliseconds of CPU (PBKDF2) on purpose,
 * so it never runs on a network thread: it runs on a small bounded pool, and when that pool's queue
 * is full the login is refused at once as busy rather than queued without bound. Failed logins are
 * answered late, and the next attempt of the same address and user waits, by {@link LoginDelays}.
 * Without password checks (no users file) the check is immediate.
 */
public final class LoginGate implements AutoCloseable {
    /** Two checks at a time: a login flood costs at most two cores' worth of hashing. */
    private static final int THREADS = 2;

    private static final int QUEUED = 64;
    /** The threads end when no login came for this long: a quiet node holds none. */
    private static final int IDLE_SECONDS = 30;

    private final Authenticator authenticator;
    private final LoginDelays delays;
    private final ThreadPoolExecutor pool;
    private final ScheduledExecutorService timer;
    private final LongAdder failed = new LongAdder();

    public LoginGate(Authenticator authenticator, LoginDelays delays) {
        this.authenticator = authenticator;
        this.delays = delays;
        if (authenticator.checksPasswords()) {
            AtomicInteger n = new AtomicInteger();
            this.pool = new ThreadPoolExecutor(
                    THREADS,
                    THREADS,
                    IDLE_SECONDS,
                    TimeUnit.SECONDS,
                    new ArrayBlockingQueue<>(QUEUED),
                    r -> daemon(r, "partita-login-" + n.incrementAndGet()));
            pool.allowCoreThreadTimeOut(true);
            ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "partita-login-delays"));
            t.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
            t.allowCoreThreadTimeOut(true);
            t.setRemoveOnCancelPolicy(true);
            this.timer = t;
        } else {
            this.pool = null;
            this.timer = null;
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * Checks a login of {@code user} from {@code address} (the host, without port). Completes with
     * null when accepted, or with the refusal shown to the client once its delay has passed; fails
     * with {@link RejectedExecutionException} when too many logins wait to be checked.
     */
    public CompletableFuture<String> check(String address, String user, String password) {
        if (pool == null) {
            return CompletableFuture.completedFuture(authenticator.check(user, password));
        }
        CompletableFuture<String> result = new CompletableFuture<>();
        long wait = delays.waitMillis(address, user);
        if (wait == 0) {
            submit(address, user, password, result);
        } else {
            timer.schedule(() -> submit(address, user, password, result), wait, TimeUnit.MILLISECONDS);
        }
        return result;
    }

    private void submit(String address, String user, String password, CompletableFuture<String> result) {
        try {
            pool.execute(() -> {
                String refusal;
                try {
                    refusal = authenticator.check(user, password);
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                    return;
                }
                if (refusal == null) {
                    delays.succeeded(address, user);
                    result.complete(null);
                } else {
                    failed.increment();
                    long delay = delays.failed(address, user);
                    timer.schedule(() -> result.complete(refusal), delay, TimeUnit.MILLISECONDS);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new RejectedExecutionException(
                    "the node is busy checking " + QUEUED + " other logins; try again later"));
        }
    }

    /**
     * How long, in milliseconds, a login of {@code user} from {@code address} must wait before a
     * caller that cannot answer late ({@link #checkNow}) may check it: such a caller refuses the
     * attempt at once as "try later" instead of holding a thread, so a guesser gets no faster.
     */
    public long mustWaitMillis(String address, String user) {
        return pool == null ? 0 : delays.waitMillis(address, user);
    }

    /**
     * Checks a login right here, for callers that are not on a network thread and cannot answer
     * late (HTTP, whose two threads a delayed answer would hold). A refusal is counted and makes the
     * next attempt of the address and user wait, as a delayed answer would; callers ask
     * {@link #mustWaitMillis} first.
     *
     * @return null when accepted, else the refusal
     */
    public String checkNow(String address, String user, String password) {
        String refusal = authenticator.check(user, password);
        if (pool != null) {
            if (refusal == null) {
                delays.succeeded(address, user);
            } else {
                failed.increment();
                delays.failed(address, user);
            }
        }
        return refusal;
    }

    /** Logins refused for their credentials since the node started. */
    public long failedLogins() {
        return failed.sum();
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
            timer.shutdownNow();
        }
    }
}
