package org.partita.broker.store.large;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreCounters;
import org.partita.broker.store.StoreFigures;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.StoredBranch;
import org.partita.broker.store.StoredEntry;
import org.partita.broker.store.StoredQueue;
import org.partita.broker.store.ThreadTurns;

/**
 * The node's store, deleting a large message's body once the removal of its message is written:
 * never before, so a node that stops in between finds the message with its body (and delivers it
 * again, as for any removal not written), and the next start deletes a body whose message is gone.
 */
public final class BodyReleasingStore implements MessageStore {
    private final MessageStore store;
    private final LargeBodies bodies;

    public BodyReleasingStore(MessageStore store, LargeBodies bodies) {
        this.store = store;
        this.bodies = bodies;
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        CompletableFuture<Void> written = store.write(batch);
        if (bodies.count() == 0) {
            return written;
        }
        List<Long> released = null;
        for (StoreOp op : batch.ops()) {
            if (op instanceof StoreOp.DeleteMessage d && bodies.holds(d.messageId())) {
                if (released == null) {
                    released = new ArrayList<>(2);
                }
                released.add(d.messageId());
            }
        }
        if (released != null) {
            List<Long> ids = released;
            written.thenRun(() -> ids.forEach(bodies::discard));
        }
        return written;
    }

    @Override
    public boolean onWriterThread() {
        return store.onWriterThread();
    }

    @Override
    public void afterConfirmations(Runnable work) {
        store.afterConfirmations(work);
    }

    @Override
    public void commitAtEndOfTurns(ThreadTurns turns) {
        store.commitAtEndOfTurns(turns);
    }

    @Override
    public void forceWritten() {
        store.forceWritten();
    }

    @Override
    public CompletableFuture<Void> writtenLately(String queue, String messageId) {
        return store.writtenLately(queue, messageId);
    }

    @Override
    public boolean recoveredFromCrash() {
        return store.recoveredFromCrash();
    }

    @Override
    public long maxMessageId() {
        return store.maxMessageId();
    }

    @Override
    public List<StoredQueue> loadQueues() {
        return store.loadQueues();
    }

    @Override
    public List<StoredBranch> loadBranches() {
        return store.loadBranches();
    }

    @Override
    public void loadEntries(Consumer<StoredEntry> sink) {
        store.loadEntries(sink);
    }

    @Override
    public byte[] readPayload(long messageId) {
        return store.readPayload(messageId);
    }

    @Override
    public Optional<StoreCounters> counters() {
        return store.counters();
    }

    @Override
    public StoreFigures figures() {
        return store.figures();
    }

    @Override
    public void close() {
        store.close();
    }
}
