package org.partita.broker.store.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.partita.broker.store.StorageDevice;
import org.partita.broker.store.h2.H2MessageStore;

/**
 * The journal's files, used in turn. Records go to one segment; at a checkpoint the next file
 * starts a new epoch and takes the appends while H2 takes the previous segment's net effect on
 * another thread. A file is reused only once its segment is checkpointed, so two files are enough:
 * if the current one fills before H2 has the previous one, appends wait for it (H2 is then the
 * bottleneck, and the journal must not outgrow it without bound).
 */
public final class JournalSegments implements AutoCloseable {
    /** The files' names in the data folder, in the order they are taken at the first start. */
    public static final List<String> FILE_NAMES =
            List.of(H2MessageStore.JOURNAL_FILE, H2MessageStore.JOURNAL_FILE + ".2");

    private final List<JournalFile> files;

    private JournalSegments(List<JournalFile> files) {
        this.files = files;
    }

    public static JournalSegments open(Path dataDir) throws IOException {
        return open(dataDir, StorageDevice.DISK);
    }

    public static JournalSegments open(Path dataDir, StorageDevice device) throws IOException {
        List<JournalFile> opened = new ArrayList<>();
        try {
            for (String name : FILE_NAMES) {
                opened.add(JournalFile.open(dataDir.resolve(name), device));
            }
            for (JournalFile f : opened) {
                f.readHeader();
            }
        } catch (IOException | RuntimeException e) {
            for (JournalFile f : opened) {
                try {
                    f.close();
                } catch (IOException closing) {
                    e.addSuppressed(closing);
                }
            }
            throw e;
        }
        return new JournalSegments(List.copyOf(opened));
    }

    /** The segments a recovery must replay, oldest first: those not known to be in H2. */
    List<JournalFile> toReplay() {
        return files.stream()
                .filter(JournalFile::mayHoldRecords)
                .sorted(Comparator.comparingLong(JournalFile::epoch))
                .toList();
    }

    /** The segment written last (highest epoch; the first file if none was ever written). */
    JournalFile newest() {
        JournalFile newest = files.get(0);
        for (JournalFile f : files) {
            if (f.epoch() > newest.epoch()) {
                newest = f;
            }
        }
        return newest;
    }

    /** The highest epoch any file's header holds. */
    long lastEpoch() {
        return newest().epoch();
    }

    /** The file that takes the appends after {@code current}. */
    JournalFile after(JournalFile current) {
        return files.get((files.indexOf(current) + 1) % files.size());
    }

    /** Bytes the files take, zeros allocated ahead included. */
    long fileSize() {
        return files.stream().mapToLong(JournalFile::fileSize).sum();
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (JournalFile f : files) {
            try {
                f.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
