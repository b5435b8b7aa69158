package org.partita.broker.embed;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.partita.broker.files.PrivateFiles;

/**
 * Holds the data folder for one node: an OS lock on {@code partita.lock} inside it, so a second node
 * (another process, or another node in this JVM) started on the same folder is refused at once,
 * naming the folder, before it touches the journal or the database. The OS drops the lock when the
 * process dies, so a crashed node never leaves a stale lock behind.
 */
final class DataFolderLock implements AutoCloseable {
    static final String FILE = "partita.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataFolderLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DataFolderLock acquire(Path dataDir) {
        Path folder = dataDir.toAbsolutePath().normalize();
        FileChannel channel = null;
        try {
            PrivateFiles.folder(folder);
            channel = FileChannel.open(folder.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            PrivateFiles.file(folder.resolve(FILE));
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException sameJvm) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new NodeStartException("data folder " + folder + " is in use by another Partita node; stop that"
                        + " node or give this one another folder (--data)");
            }
            return new DataFolderLock(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new NodeStartException("cannot use data folder " + folder + ": " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was locked
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        closeQuietly(channel);
    }
}
