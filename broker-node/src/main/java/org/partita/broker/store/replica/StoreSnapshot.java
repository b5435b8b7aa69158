package org.partita.broker.store.replica;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.statemachine.SnapshotInfo;

/**
 * What Ratis calls a replica's latest snapshot: the log entry up to which its store holds the log
 * durably ({@link AppliedMark}), and, only when the leader has a follower to send it to, a copy of
 * the store as a file ({@link StoreCopy}). The copy is made the first time Ratis asks for the files,
 * since most marks are never sent anywhere and a copy costs a read of the whole store.
 */
final class StoreSnapshot implements SnapshotInfo {
    /** Makes the copy of the store for a mark: the files it wrote. */
    interface Copier {
        List<Path> copy(TermIndex at) throws IOException;
    }

    private final TermIndex at;
    private final Copier copier;
    private List<FileInfo> files;

    StoreSnapshot(TermIndex at, Copier copier) {
        this.at = at;
        this.copier = copier;
    }

    @Override
    public TermIndex getTermIndex() {
        return at;
    }

    @Override
    public synchronized List<FileInfo> getFiles() {
        if (files == null) {
            try {
                // no digest given: Ratis computes it while it reads the file out, and the follower checks it
                files = copier.copy(at).stream()
                        .map(f -> new FileInfo(f.toAbsolutePath(), null))
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot copy the replica's store for entry " + at + ": " + e, e);
            }
        }
        return files;
    }

    @Override
    public String toString() {
        return "store of a replica up to " + at;
    }
}
