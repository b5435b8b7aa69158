package org.partita.cli;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Prints what a command found: an aligned table (or name: value lines) for people, JSON for scripts. */
final class Output {
    private static final Gson GSON = new GsonBuilder()
            .setPrettyPrinting()
            .disableHtmlEscaping()
            .serializeNulls()
            .create();

    private final PrintWriter out;
    private final boolean json;

    Output(PrintWriter out, boolean json) {
        this.out = out;
        this.json = json;
    }

    /** Rows of a listing; {@code columns} maps each heading to the row's field. */
    void table(List<Map<String, Object>> rows, Map<String, String> columns, String empty) {
        if (json) {
            out.println(GSON.toJson(rows));
            return;
        }
        if (rows.isEmpty()) {
            out.println(empty);
            return;
        }
        List<String> headings = new ArrayList<>(columns.keySet());
        int[] widths = new int[headings.size()];
        boolean[] numeric = new boolean[headings.size()];
        List<String[]> cells = new ArrayList<>();
        for (int i = 0; i < headings.size(); i++) {
            widths[i] = headings.get(i).length();
            numeric[i] = true;
        }
        for (Map<String, Object> row : rows) {
            String[] line = new String[headings.size()];
            for (int i = 0; i < headings.size(); i++) {
                Object v = row.get(columns.get(headings.get(i)));
                line[i] = v == null ? "-" : v.toString();
                widths[i] = Math.max(widths[i], line[i].length());
                numeric[i] &= v == null || v instanceof Number;
            }
            cells.add(line);
        }
        out.println(format(headings.toArray(String[]::new), widths, numeric));
        for (String[] line : cells) {
            out.println(format(line, widths, numeric));
        }
    }

    private static String format(String[] line, int[] widths, boolean[] numeric) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < line.length; i++) {
            if (i > 0) {
                sb.append("  ");
            }
            String pad = " ".repeat(widths[i] - line[i].length());
            sb.append(numeric[i] ? pad + line[i] : (i == line.length - 1 ? line[i] : line[i] + pad));
        }
        return sb.toString().stripTrailing();
    }

    /** One item's fields, as {@code name: value} lines. */
    void fields(Map<String, Object> item) {
        if (json) {
            out.println(GSON.toJson(item));
            return;
        }
        int width = item.keySet().stream().mapToInt(String::length).max().orElse(0);
        item.forEach((k, v) -> out.println(k + ":" + " ".repeat(width - k.length() + 1) + (v == null ? "-" : v)));
    }

    /** A one-line report of a change; in JSON, the given fields. */
    void done(String message, Map<String, Object> fields) {
        if (json) {
            out.println(GSON.toJson(fields));
        } else {
            out.println(message);
        }
    }

    static Map<String, Object> map(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    /** Columns in order: heading, field, heading, field, ... */
    static Map<String, String> columns(String... headingsAndFields) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < headingsAndFields.length; i += 2) {
            m.put(headingsAndFields[i], headingsAndFields[i + 1]);
        }
        return m;
    }

    /** The admin answers' values are text; numbers become numbers so tables align them and JSON types them. */
    static Map<String, Object> typed(Map<String, String> row) {
        Map<String, Object> m = new LinkedHashMap<>();
        row.forEach((k, v) -> m.put(k, v != null && v.matches("-?\\d{1,18}") ? (Object) Long.parseLong(v) : v));
        return m;
    }
}
