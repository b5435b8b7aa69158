package org.partita.broker.store.large;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import org.partita.broker.files.PrivateFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bodies of large messages, one file per message in the data folder's {@code large} folder,
 * named by the message's id. A body is written in parts as it arrives ({@link Upload}), forced to the
 * disk before the message that names it is sent, read back in parts for its consumer, and deleted
 * once the store has let go of its message ({@link BodyReleasingStore}). A message copied under a
 * new id (dead-lettered) gets a hard link to the same body, so either copy may go first.
 *
 * <p>What the node holds of a body in its heap is the parts its client has on their way. Writing,
 * forcing and reading, which may wait on the disk, run on this class's own threads, never on a
 * network thread.
 */
public final class LargeBodies implements AutoCloseable {
    /** The largest body a message may have: 2 GiB. */
    public static final long MAX_BODY_BYTES = 2L << 30;

    private static final Logger LOG = LoggerFactory.getLogger(LargeBodies.class);
    private static final String SUFFIX = ".body";

    private final Path folder;
    /** The disk the folder is on, and the free space bodies leave on it ({@code storage.diskReserveBytes}). */
    private final java.nio.file.FileStore disk;

    private final long reserveBytes;
    /** Ids of the messages that have a body here: deleting a message looks it up (most have none). */
    private final Set<Long> ids = ConcurrentHashMap.newKeySet();

    private final AtomicLong bytes = new AtomicLong();
    private final ExecutorService io;

    private LargeBodies(Path folder, long reserveBytes) throws IOException {
        this.folder = folder;
        this.disk = Files.getFileStore(folder);
        this.reserveBytes = reserveBytes;
        AtomicLong n = new AtomicLong();
        this.io = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "partita-large-bodies-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens the folder of bodies, with no free space kept in reserve: for tests. */
    public static LargeBodies open(Path folder) {
        return open(folder, 0);
    }

    /**
     * Opens (creating it if needed) the folder of bodies and counts what it holds. A body part that
     * would leave less than {@code reserveBytes} free on the folder's disk is refused.
     */
    public static LargeBodies open(Path folder, long reserveBytes) {
        try {
            PrivateFiles.folder(folder);
            LargeBodies bodies = new LargeBodies(folder, reserveBytes);
            try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
                for (Path f : files) {
                    long id = idOf(f);
                    if (id > 0) {
                        bodies.ids.add(id);
                        bodies.bytes.addAndGet(Files.size(f));
                    } else {
                        Files.deleteIfExists(f); // not ours: a left-over of an older layout cannot be read
                    }
                }
            }
            return bodies;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the folder of large message bodies " + folder, e);
        }
    }

    private static long idOf(Path file) {
        String name = file.getFileName().toString();
        if (!name.endsWith(SUFFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(0, name.length() - SUFFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    Path pathOf(long messageId) {
        return folder.resolve(messageId + SUFFIX);
    }

    /** Whether the message has its body here. */
    public boolean holds(long messageId) {
        return ids.contains(messageId);
    }

    /** How many bodies are kept, and their bytes: for figures and tests. */
    public int count() {
        return ids.size();
    }

    public long bytes() {
        return bytes.get();
    }

    /** Starts the body of the message that will have this id. */
    public Upload begin(long messageId) throws IOException {
        Path path = pathOf(messageId);
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("a large body for message " + messageId + " exists already", e);
        }
        PrivateFiles.file(path);
        ids.add(messageId);
        return new Upload(messageId, channel);
    }

    /**
     * A body being written, one part after the other. Parts are accepted on the connection's event
     * loop (their offsets checked there) and written, then forced, in order on this class's threads:
     * a write may wait for the disk (the kernel throttles writers of many dirty pages), which a
     * network thread serving other connections must not.
     */
    public final class Upload {
        private final long messageId;
        private final FileChannel channel;
        /** Bytes accepted so far: the next part's offset. Event loop only. */
        private long received;

        private boolean last;
        /** The last part's write (the force, once the last part came): each write chains on the one before. */
        private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

        private final java.util.concurrent.atomic.AtomicInteger unwritten =
                new java.util.concurrent.atomic.AtomicInteger();
        private boolean sent;

        private Upload(long messageId, FileChannel channel) {
            this.messageId = messageId;
            this.channel = channel;
        }

        public long messageId() {
            return messageId;
        }

        /** Bytes accepted so far (all of the body once it is {@link #ready}). */
        public long received() {
            return received;
        }

        /** Parts accepted and not yet written. */
        public int unwritten() {
            return unwritten.get();
        }

        /** Whether it became a message's body (or was put back into its message): no longer the connection's. */
        public boolean sent() {
            return sent;
        }

        public void markSent() {
            sent = true;
        }

        /** Whether its last part came (it may still be written and forced). */
        public boolean finished() {
            return last;
        }

        /** Whether its last part came and it is on the disk: its message may be sent. */
        public boolean ready() {
            return last && tail.isDone() && !tail.isCompletedExceptionally();
        }

        /**
         * Accepts the next part; completes once it is written (the last part: once the body and its
         * name are forced to the disk), or fails if it, or a part before it, could not be.
         */
        public CompletableFuture<Void> accept(byte[] part, boolean isLast) {
            received += part.length;
            last = isLast;
            unwritten.incrementAndGet();
            CompletableFuture<Void> written = tail.thenRunAsync(() -> write(part), io);
            tail = isLast ? written.thenRunAsync(this::force, io) : written;
            return tail;
        }

        private void write(byte[] part) {
            try {
                keepReserve(part.length);
                ByteBuffer b = ByteBuffer.wrap(part);
                while (b.hasRemaining()) {
                    channel.write(b);
                }
                bytes.addAndGet(part.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                unwritten.decrementAndGet();
            }
        }

        private void force() {
            try (FileChannel c = channel) {
                c.force(true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            forceFolder();
        }

        /** Gives the body up (its message was not sent). */
        public void abandon() {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.debug("closing the abandoned body of message {}", messageId, e);
            }
            discard(messageId);
        }
    }

    /**
     * Fails when writing {@code bytes} more would leave less than the reserve free on the disk: the
     * store, not the bodies, must have the last of the room (a full disk stops every persistent send,
     * and resuming needs room of its own).
     */
    private void keepReserve(long bytes) throws IOException {
        if (reserveBytes == 0) {
            return;
        }
        long free = disk.getUsableSpace();
        if (free - bytes < reserveBytes) {
            throw new IOException("the data folder's disk has " + (free >> 20) + " MiB free, and large message bodies"
                    + " leave " + (reserveBytes >> 20) + " MiB of it to the store (storage.diskReserveBytes)");
        }
    }

    private void forceFolder() {
        try (FileChannel dir = FileChannel.open(folder, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // some file systems cannot force a folder; the body itself is forced
            LOG.debug("could not force folder {}", folder, e);
        }
    }

    /**
     * Up to {@code length} bytes of the message's body from {@code offset}, read on this class's threads;
     * fails with {@link NoSuchFileException} if the message has no body here (any more).
     */
    public CompletableFuture<byte[]> read(long messageId, long offset, int length) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return readNow(messageId, offset, length);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                io);
    }

    /** The same read on the caller's thread. */
    public byte[] readNow(long messageId, long offset, int length) throws IOException {
        try (FileChannel c = FileChannel.open(pathOf(messageId), StandardOpenOption.READ)) {
            long size = c.size();
            if (offset < 0 || offset > size) {
                throw new IOException("offset " + offset + " is outside the body of " + size + " bytes");
            }
            int n = (int) Math.min(length, size - offset);
            ByteBuffer b = ByteBuffer.allocate(n);
            while (b.hasRemaining()) {
                if (c.read(b, offset + b.position()) < 0) {
                    throw new IOException("the body of message " + messageId + " ended early");
                }
            }
            return b.array();
        }
    }

    /** The body's length in bytes, or -1 if the message has none here. */
    public long length(long messageId) {
        try {
            return Files.size(pathOf(messageId));
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * Gives a copy of a message (dead-lettered, under a new id) the same body: a hard link, so that
     * the body stays while either holds it; copied where the file system has no links.
     */
    public void share(long fromId, long toId) {
        if (!ids.contains(fromId)) {
            return;
        }
        Path from = pathOf(fromId);
        Path to = pathOf(toId);
        try {
            try {
                Files.createLink(to, from);
            } catch (UnsupportedOperationException | IOException noLink) {
                Files.copy(from, to);
            }
            bytes.addAndGet(Files.size(to)); // each name counts its body: each deletion takes its size off
            ids.add(toId);
            forceFolder();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot give message " + toId + " the body of message " + fromId, e);
        }
    }

    /** Deletes the message's body, if it has one, on this class's threads. */
    public void discard(long messageId) {
        if (!ids.remove(messageId)) {
            return;
        }
        try {
            io.execute(() -> delete(messageId));
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            delete(messageId); // the node is stopping: a removal written last still takes its body along
        }
    }

    private void delete(long messageId) {
        Path path = pathOf(messageId);
        try {
            long size = Files.size(path);
            Files.delete(path);
            bytes.addAndGet(-size);
        } catch (NoSuchFileException gone) {
            // deleted already
        } catch (IOException e) {
            LOG.warn("could not delete the body of message {} ({}); it is deleted at the next start", messageId, e);
        }
    }

    /**
     * At start-up, once the store was read: deletes every body whose message is not kept (a send that
     * failed or a node that stopped while a body was written, or a removal that had not reached the
     * folder yet). Returns how many it deleted.
     */
    public int deleteOrphans(LongPredicate kept) {
        int deleted = 0;
        for (Long id : Set.copyOf(ids)) {
            if (!kept.test(id)) {
                ids.remove(id);
                delete(id);
                deleted++;
            }
        }
        if (deleted > 0) {
            LOG.info("deleted {} large message bodies whose messages are not kept", deleted);
        }
        return deleted;
    }

    @Override
    public void close() {
        io.shutdown();
        try {
            io.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
