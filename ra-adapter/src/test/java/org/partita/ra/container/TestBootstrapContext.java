package org.partita.ra.container;

import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.List;
import java.util.Timer;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a container gives a resource adapter at {@code start}, without a server: a work manager
 * running the adapter's work on a thread pool and timers; no inflow transactions, no work contexts.
 */
public final class TestBootstrapContext implements BootstrapContext, AutoCloseable {
    private final PoolWorkManager workManager = new PoolWorkManager();
    private final List<Timer> timers = new CopyOnWriteArrayList<>();

    @Override
    public WorkManager getWorkManager() {
        return workManager;
    }

    @Override
    public XATerminator getXATerminator() {
        return null;
    }

    @Override
    public Timer createTimer() {
        Timer t = new Timer("test-container-timer-" + timers.size(), true);
        timers.add(t);
        return t;
    }

    @Override
    public boolean isContextSupported(Class<? extends WorkContext> workContextClass) {
        return false;
    }

    @Override
    public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
        return null;
    }

    @Override
    public void close() throws InterruptedException {
        timers.forEach(Timer::cancel);
        workManager.close();
    }
}
