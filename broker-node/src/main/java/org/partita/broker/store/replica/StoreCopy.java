package org.partita.broker.store.replica;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.StoredBranch;
import org.partita.broker.store.journal.BatchRecord;

/**
 * A replica's store as one file: what the leader of a set sends a follower that fell behind the
 * start of the set's log, instead of the entries the log no longer holds (Ratis ships the file and
 * checks its digest). The file is the store's content as store operations, in the encoding of the
 * set's log entries: records of messages with their entries, then the XA branches, each record
 * preceded by its length.
 *
 * <p>A copy is read at one moment of the store (between two of its writes), at or after the log
 * entry it is named for; the follower applies the entries after that one again, which is harmless:
 * each operation sets a row or removes it.
 */
final class StoreCopy {
    /** Operations of one record, at most about this many payload bytes (plus one message). */
    private static final long RECORD_BYTES = 1 << 20;
    /** Removals in one write when a store is emptied. */
    private static final int REMOVALS_PER_WRITE = 10_000;
    /** Records written to the store before waiting for them, when a copy is loaded. */
    private static final int RECORDS_IN_FLIGHT = 8;

    private StoreCopy() {}

    /**
     * Writes everything {@code store} holds to {@code file} (replaced), forced to disk. Reads the
     * store on its writer thread, so its writes wait meanwhile.
     *
     * @return the number of message entries copied
     */
    static long write(MessageStore store, Path file) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        long[] entries = {0};
        try (OutputStream raw = Files.newOutputStream(partial);
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw, 1 << 16))) {
            RecordWriter records = new RecordWriter(out);
            try {
                store.loadEntries(e -> {
                    byte[] payload = e.payload() != null ? e.payload() : store.readPayload(e.messageId());
                    if (payload == null) {
                        return; // removed meanwhile: nothing to copy
                    }
                    // a message in several queues is copied with each entry: inserting it again merges
                    records.add(new StoreOp.InsertMessage(e.messageId(), payload), payload.length);
                    records.add(new StoreOp.InsertEntry(e.queue(), e.messageId(), e.deliveryCount()), 0);
                    entries[0]++;
                });
                for (StoredBranch b : store.loadBranches()) {
                    records.add(new StoreOp.SaveBranch(b.xid(), b.state(), b.data()), b.data().length);
                }
                records.flush();
            } catch (StoreException | java.io.UncheckedIOException e) {
                // a failed write of the file surfaces from the store's reader as its cause
                throw new IOException("cannot copy the store to " + file + ": " + e.getMessage(), e);
            }
        }
        try (FileChannel c = FileChannel.open(partial, StandardOpenOption.WRITE)) {
            c.force(true);
        }
        Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return entries[0];
    }

    /**
     * Replaces what {@code store} holds by the copy in {@code file}: what the copy lacks removed, then
     * the copy written over the rest, and the whole forced to disk; each copy of a message it writes
     * (its queue and JMSMessageID, {@link SentCopies#key}) is handed to {@code copies}.
     *
     * @return the number of records applied from the copy
     */
    static long load(MessageStore store, Path file, java.util.function.Consumer<String> copies) throws IOException {
        removeWhatTheCopyLacks(store, file);
        long[] records = {0};
        List<CompletableFuture<Void>> inFlight = new ArrayList<>();
        // the copy writes each entry right after its message (write), possibly in the next record
        long[] lastMessage = {Long.MIN_VALUE};
        String[] lastId = {null};
        readRecords(file, ops -> {
            StoreBatch batch = StoreBatch.relaxed();
            for (StoreOp op : ops) {
                batch.add(op);
                if (op instanceof StoreOp.InsertMessage m) {
                    lastMessage[0] = m.messageId();
                    lastId[0] = org.partita.protocol.MessageCodec.peekMessageId(m.payload());
                } else if (op instanceof StoreOp.InsertEntry e
                        && e.messageId() == lastMessage[0]
                        && lastId[0] != null) {
                    copies.accept(SentCopies.key(e.queue(), lastId[0]));
                }
            }
            inFlight.add(store.write(batch));
            records[0]++;
            if (inFlight.size() >= RECORDS_IN_FLIGHT) {
                awaitAll(inFlight);
            }
        });
        awaitAll(inFlight);
        store.forceWritten();
        return records[0];
    }

    /** What a copy's records are handed to, one record's operations at a time. */
    private interface RecordSink {
        void accept(List<StoreOp> ops) throws IOException;
    }

    private static void readRecords(Path file, RecordSink sink) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
                DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
            while (true) {
                int length;
                try {
                    length = in.readInt();
                } catch (EOFException end) {
                    return;
                }
                if (length < 0) {
                    throw new IOException(file + " is not a store copy: a record of " + length + " bytes");
                }
                byte[] record = new byte[length];
                in.readFully(record);
                sink.accept(BatchRecord.decode(ByteBuffer.wrap(record)));
            }
        }
    }

    /**
     * Removes the entries, messages and XA branches of a replica's store that the copy does not
     * hold (a replica's store holds no queue definitions). What both hold stays, to be written over
     * by the copy: a message removed and then inserted again under its id would not be, since the
     * store's journal settles a message's removal after the insertions it gathered with it.
     */
    private static void removeWhatTheCopyLacks(MessageStore store, Path file) throws IOException {
        Map<String, LongList> copied = new HashMap<>();
        LongList messages = new LongList();
        List<byte[]> branches = new ArrayList<>();
        readRecords(file, ops -> {
            for (StoreOp op : ops) {
                if (op instanceof StoreOp.InsertEntry e) {
                    copied.computeIfAbsent(e.queue(), q -> new LongList()).add(e.messageId());
                } else if (op instanceof StoreOp.InsertMessage m) {
                    messages.add(m.messageId());
                } else if (op instanceof StoreOp.SaveBranch b) {
                    branches.add(b.xid());
                }
            }
        });
        copied.values().forEach(LongList::sort);
        messages.sort();
        List<StoreOp> removals = new ArrayList<>();
        store.loadEntries(e -> {
            LongList inQueue = copied.get(e.queue());
            if (inQueue == null || !inQueue.contains(e.messageId())) {
                removals.add(new StoreOp.DeleteEntry(e.queue(), e.messageId()));
            }
            if (!messages.contains(e.messageId())) {
                removals.add(new StoreOp.DeleteMessage(e.messageId())); // twice for a message of two queues: harmless
            }
        });
        for (StoredBranch b : store.loadBranches()) {
            if (branches.stream().noneMatch(x -> java.util.Arrays.equals(x, b.xid()))) {
                removals.add(new StoreOp.DeleteBranch(b.xid()));
            }
        }
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int from = 0; from < removals.size(); from += REMOVALS_PER_WRITE) {
            StoreBatch batch = StoreBatch.relaxed();
            removals.subList(from, Math.min(removals.size(), from + REMOVALS_PER_WRITE))
                    .forEach(batch::add);
            writes.add(store.write(batch));
        }
        awaitAll(writes);
    }

    /** Message ids, sorted once gathered, then looked up: 8 bytes an id. */
    private static final class LongList {
        private long[] values = new long[16];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        void sort() {
            java.util.Arrays.sort(values, 0, size);
        }

        boolean contains(long v) {
            return java.util.Arrays.binarySearch(values, 0, size, v) >= 0;
        }
    }

    private static void awaitAll(List<CompletableFuture<Void>> writes) throws IOException {
        try {
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
        } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
            throw new IOException(
                    "a replica store could not take a copy of the leader's store: "
                            + (e.getCause() != null ? e.getCause() : e),
                    e);
        } catch (StoreException e) {
            throw new IOException("a replica store could not take a copy of the leader's store: " + e.getMessage(), e);
        }
        writes.clear();
    }

    /** Gathers operations into records of about {@link #RECORD_BYTES} and writes each with its length. */
    private static final class RecordWriter {
        private final DataOutputStream out;
        private final List<StoreOp> ops = new ArrayList<>();
        private long bytes;

        RecordWriter(DataOutputStream out) {
            this.out = out;
        }

        void add(StoreOp op, long payloadBytes) {
            ops.add(op);
            bytes += payloadBytes + 64;
            if (bytes >= RECORD_BYTES) {
                flush();
            }
        }

        void flush() {
            if (ops.isEmpty()) {
                return;
            }
            byte[] record = BatchRecord.encode(ops);
            try {
                out.writeInt(record.length);
                out.write(record);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            ops.clear();
            bytes = 0;
        }
    }
}
