package org.partita.broker.store.replica;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;

/**
 * The copies of messages a set's leader remembers storing lately ({@link RecentSends}), sent to a
 * follower beside a copy of its store ({@link StoreCopy}). The store's copy names only the messages
 * still waiting; a message stored and consumed before the copy was made is in neither, and without
 * this file the follower, once it leads, would store it again when its producer's node sends it
 * again after a write in doubt (found by the nemesis: a consumed message delivered a second time,
 * unflagged). A file of its own beside the copy, so that a node of an earlier version, which knows
 * only the copy, still loads that.
 */
final class RecentSendsCopy {
    private RecentSendsCopy() {}

    /** Writes {@code copies} (oldest first) to {@code file} (replaced), forced to disk. */
    static void write(List<String> copies, Path file) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        try (OutputStream raw = Files.newOutputStream(partial);
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw, 1 << 16))) {
            out.writeInt(copies.size());
            for (String c : copies) {
                out.writeUTF(c);
            }
        }
        try (FileChannel c = FileChannel.open(partial, StandardOpenOption.WRITE)) {
            c.force(true);
        }
        Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Hands each copy {@code file} names to {@code sink}, oldest first.
     *
     * @return how many it named
     */
    static int read(Path file, Consumer<String> sink) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
                DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
            int count = in.readInt();
            if (count < 0) {
                throw new IOException(file + " is not a list of recent sends: " + count + " of them");
            }
            for (int i = 0; i < count; i++) {
                sink.accept(in.readUTF());
            }
            return count;
        } catch (EOFException e) {
            throw new IOException(file + " ends before its last recent send", e);
        }
    }
}
