package org.partita.broker.store.commit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.partita.broker.store.MessageStore;

/** Holds a store's writer thread inside a read, so that what is written meanwhile waits for it. */
public final class ParkedWriter {
    private ParkedWriter() {}

    /**
     * Holds the writer thread inside a read of the store's entries until the returned latch is
     * released. The store must hold at least one entry, for the read to stop on.
     */
    public static CountDownLatch park(MessageStore store) throws InterruptedException {
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread reader = new Thread(
                () -> store.loadEntries(e -> {
                    parked.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                }),
                "park-writer");
        reader.setDaemon(true);
        reader.start();
        assertTrue(parked.await(10, TimeUnit.SECONDS), "writer did not run the parking read");
        return release;
    }
}
