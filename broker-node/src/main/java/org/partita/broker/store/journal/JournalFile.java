package org.partita.broker.store.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.partita.broker.files.PrivateFiles;
import org.partita.broker.store.StorageDevice;
import org.partita.broker.store.StoreException;

/**
 * One append-only file of records, reused round after round: one segment of the journal
 * ({@link JournalSegments}). The header holds the segment's epoch, unique across the journal's
 * files and growing; every record carries it, so after a rewind the records of an earlier round
 * left further on in the file are recognised as stale and never replayed. The header also says
 * whether the segment's net effect is already in H2 (checkpointed: nothing to replay). Space is
 * allocated ahead with real zeros, so a sync only flushes data blocks ({@code force(false)},
 * fdatasync) instead of also updating the file's size and block map for every commit; a
 * {@link JournalAllocator} does that on a thread of its own, before the writer needs the space.
 *
 * <pre>
 * header (4 KiB): "PTJ1" magic, int version, long epoch, byte state (0 live, 1 clean stop, 2 checkpointed)
 * record:         int bodyLength, int crc32c(epoch + body), long epoch, body
 * </pre>
 */
public final class JournalFile implements AutoCloseable {
    static final int HEADER_SIZE = 4096;
    static final int RECORD_OVERHEAD = 16;
    private static final int MAGIC = 0x50544A31; // "PTJ1"
    /** Version 1 had one file and no checkpointed state; it is read alike. */
    private static final int VERSION = 2;

    private static final byte LIVE = 0;
    private static final byte CLEAN_STOP = 1;
    private static final byte CHECKPOINTED = 2;
    static final int ALLOCATION_STEP = 4 << 20;

    private final Path path;
    private final FileChannel channel;
    private static final int HEADER_BYTES = 17;

    private long epoch;
    private boolean hasHeader;
    private byte state;
    private long position = HEADER_SIZE;
    /** Bytes zero-filled and forced: records go only below it. Grown by the writer or the allocator, under {@link #allocation}. */
    private volatile long allocated;

    private final Object allocation = new Object();
    /**
     * A sync of this file that failed on another thread (the allocator's). Linux reports a failed
     * write-back to the first sync of the file after it, not to each one: the writer's next sync
     * could succeed while records it holds never reached the disk. So the writer's syncs fail too,
     * until the store reopens the file.
     */
    private volatile IOException failedSync;

    private final CRC32C crc = new CRC32C();

    private JournalFile(Path path, FileChannel channel) throws IOException {
        this.path = path;
        this.channel = channel;
        this.allocated = channel.size();
    }

    static JournalFile open(Path path) throws IOException {
        return open(path, StorageDevice.DISK);
    }

    static JournalFile open(Path path, StorageDevice device) throws IOException {
        FileChannel ch =
                device.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            PrivateFiles.file(path); // before the first record
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return new JournalFile(path, ch);
    }

    /** Bytes of records written in this epoch, the header excluded. */
    long used() {
        return position - HEADER_SIZE;
    }

    /**
     * Reads the header: the segment's epoch and state. A file without a valid header (new, or
     * whose first header never reached the disk) has epoch 0 and nothing to replay.
     */
    void readHeader() throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        position = HEADER_SIZE;
        if (channel.size() < HEADER_SIZE
                || channel.read(header, 0) < HEADER_BYTES
                || header.flip().getInt() != MAGIC) {
            epoch = 0;
            hasHeader = false;
            state = LIVE;
            return;
        }
        int version = header.getInt();
        if (version != VERSION && version != 1) {
            throw new StoreException(
                    "journal " + path + " has version " + version + ", this node reads " + VERSION, null);
        }
        epoch = header.getLong();
        state = header.get();
        hasHeader = true;
    }

    /**
     * Reads the header, then every intact record of its epoch, handing each body to {@code sink}.
     * Reading stops at the first record that is short, torn (checksum), or of another epoch: the
     * end of what was written before the stop. Leaves the write position after the last good record.
     * A checkpointed segment replays nothing: H2 holds its net effect.
     */
    void replay(Consumer<ByteBuffer> sink) throws IOException {
        readHeader();
        if (!hasHeader || state == CHECKPOINTED) {
            return;
        }
        long pos = HEADER_SIZE;
        long size = channel.size();
        ByteBuffer head = ByteBuffer.allocate(RECORD_OVERHEAD);
        while (pos + RECORD_OVERHEAD <= size) {
            head.clear();
            readFully(head, pos);
            head.flip();
            int length = head.getInt();
            int checksum = head.getInt();
            long recordEpoch = head.getLong();
            if (length <= 0 || recordEpoch != epoch || pos + RECORD_OVERHEAD + length > size) {
                break;
            }
            ByteBuffer body = ByteBuffer.allocate(length);
            readFully(body, pos + RECORD_OVERHEAD);
            body.flip();
            if (checksum(recordEpoch, body.duplicate()) != checksum) {
                break;
            }
            sink.accept(body);
            pos += RECORD_OVERHEAD + length;
        }
        position = pos;
    }

    /** The epoch in the header read last (0 without one). */
    long epoch() {
        return epoch;
    }

    /** True if the header read last may have records to replay: it exists and is not checkpointed. */
    boolean mayHoldRecords() {
        return hasHeader && state != CHECKPOINTED;
    }

    Path path() {
        return path;
    }

    /**
     * Appends one record (not yet forced). {@code record} holds {@link #RECORD_OVERHEAD} reserved
     * bytes then the body, from index 0 to its position; the head is filled in here, so a group
     * costs one write.
     *
     * @return the bytes this append had to allocate first: 0 when the space was prepared ahead
     */
    long append(ByteBuffer record) throws IOException {
        int length = record.position() - RECORD_OVERHEAD;
        long allocatedHere = ensureAllocated(position + RECORD_OVERHEAD + length);
        ByteBuffer body = record.duplicate().position(RECORD_OVERHEAD).limit(record.position());
        record.putInt(0, length).putInt(4, checksum(epoch, body)).putLong(8, epoch);
        record.flip();
        writeFully(record, position);
        position += RECORD_OVERHEAD + length;
        return allocatedHere;
    }

    /** Where the next record goes. */
    long position() {
        return position;
    }

    /** Bytes the file takes (records, header and the zeros allocated ahead). */
    long fileSize() {
        return allocated;
    }

    /**
     * Makes the records from {@code at} on invisible to a replay, and forced so: they belong to a
     * group that failed and was answered with an error, so no restart may bring them back. Zeroing
     * one record head is enough, since a replay stops at the first record that is not intact; the
     * bytes are already allocated, so this needs no new space on a full disk.
     */
    void invalidateFrom(long at) throws IOException {
        if (at < HEADER_SIZE || at + RECORD_OVERHEAD > allocated) {
            return;
        }
        writeFully(ByteBuffer.allocate(RECORD_OVERHEAD), at);
        channel.force(false);
        position = Math.min(position, at);
    }

    /** Flushes the records to the disk: data only, the allocation already made it there. */
    void force() throws IOException {
        channel.force(false);
        IOException failed = failedSync;
        if (failed != null) {
            throw new IOException("journal sync failed: " + failed.getMessage(), failed);
        }
    }

    /**
     * Starts the next epoch at the beginning of the file, with the header forced before any
     * record of the new epoch can be confirmed. Call only once everything in the file is safe elsewhere.
     */
    void rewind() throws IOException {
        startEpoch(epoch + 1);
    }

    /**
     * Starts epoch {@code next} (higher than any other segment's) at the beginning of the file,
     * with the header forced before any record of it can be confirmed. Call only once everything
     * in the file is safe elsewhere.
     *
     * @return the bytes it had to allocate first: 0 when the file was prepared ahead
     */
    long startEpoch(long next) throws IOException {
        long allocatedHere = writeHeader(next, LIVE);
        position = HEADER_SIZE;
        return allocatedHere;
    }

    /**
     * The last rewind of a clean stop: everything is in H2, and the next start may skip the checks
     * a crash makes necessary.
     */
    void rewindAtCleanStop() throws IOException {
        rewindAtCleanStop(epoch + 1);
    }

    void rewindAtCleanStop(long next) throws IOException {
        writeHeader(next, CLEAN_STOP);
        position = HEADER_SIZE;
    }

    /**
     * Records, forced, that H2 holds this segment's net effect: no replay may apply it again
     * (over newer changes from later segments), and the file may be reused.
     */
    void markCheckpointed() throws IOException {
        if (hasHeader && state != CHECKPOINTED) {
            writeHeader(epoch, CHECKPOINTED);
        }
    }

    /** True if the header read by {@link #replay} was written by {@link #rewindAtCleanStop}. */
    boolean closedCleanly() {
        return hasHeader && state == CLEAN_STOP;
    }

    /** The header takes effect only once it is on the disk; a failure leaves the old one in memory. */
    private long writeHeader(long newEpoch, byte newState) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES)
                .putInt(MAGIC)
                .putInt(VERSION)
                .putLong(newEpoch)
                .put(newState)
                .flip();
        long allocatedHere = ensureAllocated(HEADER_SIZE);
        writeFully(header, 0);
        channel.force(false);
        epoch = newEpoch;
        state = newState;
        hasHeader = true;
        return allocatedHere;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /**
     * Allocates the file up to {@code end} ahead of need, from any thread (the allocator's). Zeros
     * go only past the allocated end, where no record is, and the new end is published only once
     * forced, so the writer, appending meanwhile below it, never depends on space not yet on the disk.
     */
    void prepare(long end) throws IOException {
        synchronized (allocation) {
            if (end > allocated) {
                extend(end);
            }
        }
    }

    /**
     * The writer's own allocation, when nobody prepared the space: extends the file in steps,
     * forcing the new size once per step, not once per commit. Returns the bytes it allocated.
     */
    private long ensureAllocated(long end) throws IOException {
        if (end <= allocated) {
            return 0;
        }
        synchronized (allocation) {
            long before = allocated;
            if (end <= before) {
                return 0; // the allocator was preparing it: waited for, not written here
            }
            extend(Math.max(end, before + ALLOCATION_STEP));
            return allocated - before;
        }
    }

    private void extend(long target) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect(64 * 1024);
        for (long at = allocated; at < target; ) {
            zeros.clear();
            zeros.limit((int) Math.min(zeros.capacity(), target - at));
            at += channel.write(zeros, at);
        }
        try {
            channel.force(true);
        } catch (IOException e) {
            failedSync = e;
            throw e;
        }
        allocated = target;
    }

    private int checksum(long recordEpoch, ByteBuffer body) {
        crc.reset();
        crc.update(ByteBuffer.allocate(8).putLong(0, recordEpoch));
        crc.update(body);
        return (int) crc.getValue();
    }

    private void readFully(ByteBuffer dst, long at) throws IOException {
        while (dst.hasRemaining()) {
            int n = channel.read(dst, at);
            if (n < 0) {
                throw new IOException("unexpected end of " + path);
            }
            at += n;
        }
    }

    private void writeFully(ByteBuffer src, long at) throws IOException {
        while (src.hasRemaining()) {
            at += channel.write(src, at);
        }
    }
}
