package org.partita.broker.store.replica;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.apache.ratis.server.protocol.TermIndex;

/**
 * The last log entry a replica's store holds durably, in a small file beside it: where the Raft log
 * is replayed from when the node starts (Ratis calls it the snapshot: here the store itself is the
 * snapshot, and this file says how far it goes). Replaced atomically, so a crash leaves the old mark
 * or the new one, and the store never lags behind the mark (it is written only after the store
 * forced the entries it names).
 */
final class AppliedMark {
    private final Path file;

    AppliedMark(Path file) {
        this.file = file;
    }

    /** The folder of the mark, beside the store it marks. */
    Path folder() {
        return file.toAbsolutePath().getParent();
    }

    /** The mark, or null when the store holds no entry yet. */
    TermIndex read() throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        String[] parts =
                Files.readString(file, StandardCharsets.US_ASCII).trim().split(" ");
        if (parts.length != 2) {
            throw new IOException(file + " is not an applied mark (term and index): " + String.join(" ", parts));
        }
        try {
            return TermIndex.valueOf(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
        } catch (NumberFormatException e) {
            throw new IOException(file + " is not an applied mark (term and index)", e);
        }
    }

    void write(TermIndex mark) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        byte[] text = (mark.getTerm() + " " + mark.getIndex() + "\n").getBytes(StandardCharsets.US_ASCII);
        try (FileChannel out = FileChannel.open(
                next, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(ByteBuffer.wrap(text));
            out.force(true);
        }
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
