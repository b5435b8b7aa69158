package org.partita.broker.admin;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * Builds an admin answer: {@code name=value} lines. A listing is a series of blocks, each opened
 * by its key line ({@code queue=orders}) and followed by that item's fields. A figure that was
 * not measured is left out, never written as zero.
 */
final class ReplyLines {
    private final StringBuilder sb = new StringBuilder();

    ReplyLines put(String name, Object value) {
        sb.append(name)
                .append('=')
                .append(oneLine(value == null ? "" : value.toString()))
                .append('\n');
        return this;
    }

    ReplyLines putDecimal(String name, double value) {
        return put(name, String.format(Locale.ROOT, "%.2f", value));
    }

    ReplyLines putIfPresent(String name, OptionalLong value) {
        if (value.isPresent()) {
            put(name, value.getAsLong());
        }
        return this;
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
