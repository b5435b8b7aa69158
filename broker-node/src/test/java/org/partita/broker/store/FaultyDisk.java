package org.partita.broker.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.h2.store.fs.FilePath;
import org.h2.store.fs.FilePathWrapper;
import org.partita.broker.store.h2.H2MessageStore;

/**
 * A disk that tests can make fail under the real store: the journal's channel and H2's file (through
 * an H2 file system registered under {@value #SCHEME}) pass every call to the real file, unless a
 * fault is on for that file.
 */
public final class FaultyDisk implements StorageDevice {
    public enum Fault {
        NONE,
        /** A full disk: a write that would grow the file fails; overwriting allocated bytes still works. */
        FULL,
        /** A failing device: every write fails. */
        WRITES,
        /** Writes reach the page cache, the sync fails. */
        SYNC,
        /** A device that stops answering: a sync waits until the fault is healed, then succeeds. */
        STALL,
        /** A slow device (a spinning disk, a network volume): each sync takes {@link #SLOW_SYNC_MILLIS} longer. */
        SLOW_SYNC
    }

    public static final long SLOW_SYNC_MILLIS = 3;

    static final String SCHEME = "partitafaulty";
    /** H2 opens its files by name: each disk is found by the folder it serves. */
    private static final Map<String, FaultyDisk> BY_FOLDER = new ConcurrentHashMap<>();

    static {
        FilePath.register(new H2Files());
    }

    private final String folder;
    private volatile Fault fault = Fault.NONE;
    private volatile Predicate<String> files = name -> true;

    public FaultyDisk(Path folder) {
        this.folder = folder.toAbsolutePath().normalize().toString();
        BY_FOLDER.put(this.folder, this);
    }

    /** From now on, {@code fault} hits every file whose name {@code files} accepts. */
    public void fail(Fault f, Predicate<String> which) {
        files = which;
        fault = f;
    }

    public void fail(Fault f) {
        fail(f, name -> true);
    }

    /** The cause is gone: room again, syncs work. */
    public synchronized void heal() {
        fault = Fault.NONE;
        notifyAll();
    }

    /** Only H2's database file. */
    public static boolean database(String name) {
        return name.endsWith(".mv.db");
    }

    /** Only the journal (both its files). */
    public static boolean journal(String name) {
        return H2MessageStore.JOURNAL_FILES.stream().anyMatch(name::endsWith);
    }

    @Override
    public FileChannel open(Path file, OpenOption... options) throws IOException {
        return new Channel(FileChannel.open(file, options), file.toString(), this);
    }

    @Override
    public String h2Prefix() {
        return SCHEME + ":";
    }

    private void beforeWrite(String name, long end, long size) throws IOException {
        Fault f = fault;
        if (f == Fault.WRITES && files.test(name)) {
            throw new IOException("Input/output error (write failed)");
        }
        if (f == Fault.FULL && end > size && files.test(name)) {
            throw new IOException("No space left on device");
        }
    }

    private void beforeSync(String name) throws IOException {
        if (fault == Fault.SLOW_SYNC && files.test(name)) {
            long until = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(SLOW_SYNC_MILLIS);
            for (long left; (left = until - System.nanoTime()) > 0; ) {
                java.util.concurrent.locks.LockSupport.parkNanos(left);
            }
        }
        if (fault == Fault.STALL && files.test(name)) {
            stallUntilHealed();
        }
        if (fault == Fault.SYNC && files.test(name)) {
            throw new IOException("Input/output error (sync failed)");
        }
    }

    private synchronized void stallUntilHealed() throws IOException {
        long deadline = System.nanoTime()
                + java.util.concurrent.TimeUnit.MINUTES.toNanos(2); // a test that forgets to heal fails, not hangs
        while (fault == Fault.STALL && System.nanoTime() < deadline) {
            try {
                wait(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while the disk stalled");
            }
        }
    }

    /** H2's side: {@code partitafaulty:/folder/partita.mv.db} opens the real file through a {@link Channel}. */
    public static final class H2Files extends FilePathWrapper {
        @Override
        public String getScheme() {
            return SCHEME;
        }

        @Override
        public FileChannel open(String mode) throws IOException {
            FileChannel real = getBase().open(mode);
            String name = getBase().toString();
            for (Map.Entry<String, FaultyDisk> e : BY_FOLDER.entrySet()) {
                if (name.startsWith(e.getKey())) {
                    return new Channel(real, name, e.getValue());
                }
            }
            return real;
        }
    }

    /** Passes every call to the real channel, after asking the disk whether it fails. */
    private static final class Channel extends FileChannel {
        private final FileChannel real;
        private final String name;
        private final FaultyDisk disk;

        Channel(FileChannel real, String name, FaultyDisk disk) {
            this.real = real;
            this.name = name;
            this.disk = disk;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return real.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return real.read(dsts, offset, length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            disk.beforeWrite(name, real.position() + src.remaining(), real.size());
            return real.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long bytes = 0;
            for (int i = offset; i < offset + length; i++) {
                bytes += srcs[i].remaining();
            }
            disk.beforeWrite(name, real.position() + bytes, real.size());
            return real.write(srcs, offset, length);
        }

        @Override
        public long position() throws IOException {
            return real.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            real.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            real.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            disk.beforeSync(name);
            real.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return real.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            disk.beforeWrite(name, position + count, real.size());
            return real.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return real.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            disk.beforeWrite(name, position + src.remaining(), real.size());
            return real.write(src, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return real.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return real.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return real.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            real.close();
        }
    }
}
