package org.partita.jms.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** Reads the node's admin answers: {@code name=value} lines, listings as blocks opened by a key line. */
final class AdminReplies {
    private AdminReplies() {}

    static Map<String, String> lines(String body) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : body.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return m;
    }

    /** One map per block; a block starts at each line whose name is {@code key}. */
    static List<Map<String, String>> blocks(String body, String key) {
        List<Map<String, String>> out = new ArrayList<>();
        Map<String, String> current = null;
        for (String line : body.split("\n")) {
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String name = line.substring(0, eq);
            if (name.equals(key)) {
                current = new LinkedHashMap<>();
                out.add(current);
            }
            if (current != null) {
                current.put(name, line.substring(eq + 1));
            }
        }
        return out;
    }

    /** A figure the node leaves out when it was not measured. */
    static OptionalLong optionalLong(Map<String, String> row, String name) {
        String v = row.get(name);
        return v == null || v.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(v));
    }
}
