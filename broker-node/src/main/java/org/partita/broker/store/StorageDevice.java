package org.partita.broker.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * Where the store's files live: the journal's channel and the scheme H2 opens its file with. The
 * node uses {@link #DISK}; tests give a device that can be made to fail (disk full, failed syncs)
 * while the real store and the real broker run above it.
 */
public interface StorageDevice {
    /** The file system, as is. */
    StorageDevice DISK = new StorageDevice() {};

    /** Opens a file of the store (the journal). */
    default FileChannel open(Path file, OpenOption... options) throws IOException {
        return FileChannel.open(file, options);
    }

    /**
     * The H2 file-system prefix the database is opened with: {@code file:} for the disk, or the
     * scheme of an {@code org.h2.store.fs.FilePath} the device registered with H2.
     */
    default String h2Prefix() {
        return "file:";
    }
}
