package org.partita.broker.store.h2;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Ids to delete, per key (a queue name, or one key for payloads), handed out as runs of
 * consecutive ids. Message ids are given out in sequence, so draining a queue deletes long runs:
 * one range delete each instead of one statement per row. Only ids actually added are ever inside
 * a run, so a range never touches a row that was not to be deleted.
 */
final class DeletionRuns {

    interface RunSink {
        void run(String key, long from, long to) throws SQLException;
    }

    private static final class Ids {
        long[] values = new long[16];
        int size;

        void add(long id) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = id;
        }
    }

    private final Map<String, Ids> byKey = new LinkedHashMap<>();

    void add(String key, long id) {
        byKey.computeIfAbsent(key, k -> new Ids()).add(id);
    }

    boolean isEmpty() {
        return byKey.isEmpty();
    }

    /** Each key's ids, sorted, duplicates dropped, as maximal runs of consecutive ids. */
    void forEachRun(RunSink sink) throws SQLException {
        for (Map.Entry<String, Ids> e : byKey.entrySet()) {
            long[] ids = Arrays.copyOf(e.getValue().values, e.getValue().size);
            Arrays.sort(ids);
            int i = 0;
            while (i < ids.length) {
                long from = ids[i];
                long to = from;
                i++;
                while (i < ids.length && (ids[i] == to || ids[i] == to + 1)) {
                    to = ids[i];
                    i++;
                }
                sink.run(e.getKey(), from, to);
            }
        }
    }

    void clear() {
        byKey.clear();
    }
}
