package org.partita.jms.message;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The body of a large message as the client received it: in memory when it is small enough for this
 * JVM, else in a temporary file of the client's own (owner-only, deleted once the message is no
 * longer referenced, or when the JVM exits). Read as a stream as often as asked.
 */
public abstract sealed class LargeBody {
    /** The largest array a JVM allocates: a body beyond it is read as a stream only. */
    public static final long MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

    private static final Cleaner CLEANER = Cleaner.create();

    public abstract long length();

    /** The body from its start. */
    public abstract InputStream open() throws IOException;

    /** The whole body as one array; refused beyond {@link #MAX_ARRAY_BYTES}. */
    public byte[] readAll() throws IOException {
        if (length() > MAX_ARRAY_BYTES) {
            throw new IOException("a body of " + length() + " bytes does not fit in one array; read it as a stream"
                    + " (JMS_PARTITA_SaveStream, or readBytes in turns)");
        }
        try (InputStream in = open()) {
            return in.readNBytes((int) length());
        }
    }

    public void copyTo(OutputStream out) throws IOException {
        try (InputStream in = open()) {
            in.transferTo(out);
        }
        out.flush();
    }

    public static LargeBody inMemory(byte[] bytes) {
        return new InMemory(bytes);
    }

    /** A new temporary file for a body of {@code length} bytes, to be filled by the caller. */
    public static InFile newFile(long length) throws IOException {
        Path file;
        try {
            file = Files.createTempFile(
                    "partita-body-",
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException noPosix) {
            file = Files.createTempFile("partita-body-", ".tmp");
        }
        file.toFile().deleteOnExit();
        return new InFile(file, length);
    }

    static final class InMemory extends LargeBody {
        private final byte[] bytes;

        InMemory(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public long length() {
            return bytes.length;
        }

        @Override
        public InputStream open() {
            return new ByteArrayInputStream(bytes);
        }

        @Override
        public byte[] readAll() {
            return bytes.clone();
        }
    }

    /** A body kept in a temporary file, deleted when no message refers to it any more. */
    public static final class InFile extends LargeBody {
        private final Path file;
        private final long length;

        private InFile(Path file, long length) {
            this.file = file;
            this.length = length;
            CLEANER.register(this, () -> {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }

        /** Where the caller writes the body while it is received. */
        public Path file() {
            return file;
        }

        @Override
        public long length() {
            return length;
        }

        @Override
        public InputStream open() throws IOException {
            return new java.io.BufferedInputStream(Files.newInputStream(file), 64 << 10);
        }
    }
}
