package org.partita.broker.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the node writes (the data folder, the database, the journal, the Raft log) holds every
 * message and must be readable by the node's user alone, whatever the umask it was started with:
 * folders get {@code rwx------}, files {@code rw-------}. Modes are set explicitly after creation,
 * since a mode given at creation is filtered by the umask. On a file system without POSIX
 * permissions (Windows) nothing is changed.
 *
 * <p>Files the operator provides (users file, keystore) are not changed, only checked: the node
 * warns at start when others may read them.
 */
public final class PrivateFiles {
    private static final Logger LOG = LoggerFactory.getLogger(PrivateFiles.class);
    public static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");
    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OTHERS_READ =
            EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);

    private PrivateFiles() {}

    /** Creates the folder (and missing parents) if needed, and makes it the node user's alone. */
    public static void folder(Path dir) throws IOException {
        Files.createDirectories(dir);
        restrict(dir, FOLDER);
    }

    /** Makes an existing file the node user's alone. */
    public static void file(Path file) throws IOException {
        restrict(file, FILE);
    }

    /** The folder, every folder and file in it, recursively (symbolic links are not followed). */
    public static void tree(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.forEach(p -> {
                try {
                    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        restrict(p, FOLDER);
                    } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                        restrict(p, FILE);
                    }
                } catch (java.nio.file.NoSuchFileException gone) {
                    // a temporary file deleted meanwhile
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Logs a warning if {@code file}, which holds secrets the operator gave the node (such as the
     * users file or a keystore), may be read by its group or by others. Returns whether it warned.
     */
    public static boolean warnIfReadableByOthers(Path file, String what) {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view == null) {
            return false;
        }
        try {
            Set<PosixFilePermission> perms = view.readAttributes().permissions();
            if (perms.stream().anyMatch(OTHERS_READ::contains)) {
                LOG.atWarn()
                        .addKeyValue("event", "file.readable")
                        .addKeyValue("file", file.toString())
                        .log(
                                "the {} {} is readable by users other than the node's ({}); make it private: chmod 600 {}",
                                what,
                                file.toAbsolutePath(),
                                PosixFilePermissions.toString(perms),
                                file.toAbsolutePath());
                return true;
            }
        } catch (IOException e) {
            LOG.debug("cannot read the permissions of {}: {}", file, e.toString());
        }
        return false;
    }

    private static void restrict(Path p, Set<PosixFilePermission> mode) throws IOException {
        PosixFileAttributeView view =
                Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return;
        }
        if (!view.readAttributes().permissions().equals(mode)) {
            view.setPermissions(mode);
        }
    }
}
