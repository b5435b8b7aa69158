package org.partita.broker.store.commit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreUnavailableException;

/**
 * Tells an I/O fault of the store (the disk is full, a write or a sync failed, H2 closed itself
 * after one) from a refusal of one batch's content. A fault stops all writing until the store is
 * reopened; a refusal fails that batch alone.
 */
final class StoreFaults {
    private StoreFaults() {}

    /**
     * True unless the failure is a refusal of the data itself: a {@link StoreException} raised by
     * the store's own checks, or an SQL data or constraint error (SQLSTATE classes 22 and 23).
     * Anything unclear counts as a fault: reopening the store is harmless, writing on after an
     * unnoticed I/O error is not.
     */
    static boolean isFault(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof IOException
                    || c instanceof UncheckedIOException
                    || c instanceof StoreUnavailableException) {
                return true;
            }
        }
        if (t instanceof StoreException && t.getCause() == null) {
            return false;
        }
        if (t instanceof SQLException s
                && s.getSQLState() != null
                && (s.getSQLState().startsWith("22") || s.getSQLState().startsWith("23"))) {
            return false;
        }
        return true;
    }

    /** The root cause's message, which names what the operator must fix (such as "No space left on device"). */
    static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return m == null ? root.getClass().getSimpleName() : m;
    }
}
