package org.partita.protocol.selector;

import java.util.ArrayList;
import java.util.List;

/**
 * A compiled LIKE pattern: {@code _} stands for any one character (one Unicode code point),
 * {@code %} for any sequence of characters, possibly empty; everything else, regular expression
 * metacharacters included, stands for itself. The escape character, when there is one, makes the
 * {@code _}, {@code %} or escape character that follows it literal.
 *
 * <p>The pattern is split at each {@code %} into segments. The first segment must match at the
 * start of the value, the last one at its end, and each one in between is matched at its leftmost
 * occurrence after the previous one, which is enough since {@code %} absorbs whatever is skipped.
 * No regular expression is involved and a match takes at most time proportional to the product
 * of the value and pattern lengths (linear when the pattern has no {@code _}).
 */
final class LikePattern {

    /** Code point value standing for {@code _} inside a segment. */
    private static final int ANY_ONE = -1;

    /** Always at least one; exactly one when the pattern holds no {@code %}. */
    private final Segment[] segments;

    private LikePattern(Segment[] segments) {
        this.segments = segments;
    }

    /**
     * @param escape the escape code point, or -1 for none
     * @throws IllegalArgumentException when the escape character is followed by anything else than
     *                                  {@code _}, {@code %} or itself, or ends the pattern
     */
    static LikePattern compile(String pattern, int escape) {
        List<Segment> segments = new ArrayList<>();
        List<Integer> current = new ArrayList<>();
        int i = 0;
        while (i < pattern.length()) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (c == escape) {
                if (i >= pattern.length()) {
                    throw new IllegalArgumentException("LIKE pattern ends with its escape character");
                }
                int escaped = pattern.codePointAt(i);
                if (escaped != '%' && escaped != '_' && escaped != escape) {
                    throw new IllegalArgumentException("escape character in LIKE pattern must be followed by"
                            + " '%', '_' or itself, not '" + new String(Character.toChars(escaped)) + "'");
                }
                i += Character.charCount(escaped);
                current.add(escaped);
            } else if (c == '%') {
                segments.add(Segment.of(current));
                current.clear();
            } else if (c == '_') {
                current.add(ANY_ONE);
            } else {
                current.add(c);
            }
        }
        segments.add(Segment.of(current));
        // Consecutive '%' leave empty segments in the middle: they match anywhere, drop them.
        List<Segment> kept = new ArrayList<>();
        for (int s = 0; s < segments.size(); s++) {
            if (s == 0 || s == segments.size() - 1 || segments.get(s).length() > 0) {
                kept.add(segments.get(s));
            }
        }
        return new LikePattern(kept.toArray(new Segment[0]));
    }

    boolean matches(String value) {
        int length = value.length();
        if (segments.length == 1) {
            return segments[0].matchForward(value, 0, length) == length;
        }
        int start = segments[0].matchForward(value, 0, length);
        if (start < 0) {
            return false;
        }
        int end = segments[segments.length - 1].matchBackward(value, length, start);
        if (end < 0) {
            return false;
        }
        for (int s = 1; s < segments.length - 1 && start >= 0; s++) {
            start = segments[s].find(value, start, end);
        }
        return start >= 0;
    }

    /** A run of literal code points and {@code _} wildcards between two {@code %}. */
    private static final class Segment {

        private final int[] elements;
        /** The segment as a string when it holds no {@code _}: matched with String methods. */
        private final String literal;

        private Segment(int[] elements, String literal) {
            this.elements = elements;
            this.literal = literal;
        }

        static Segment of(List<Integer> codePoints) {
            int[] elements = codePoints.stream().mapToInt(Integer::intValue).toArray();
            for (int e : elements) {
                if (e == ANY_ONE) {
                    return new Segment(elements, null);
                }
            }
            return new Segment(elements, new String(elements, 0, elements.length));
        }

        int length() {
            return elements.length;
        }

        /** The end of this segment matched at {@code from} without passing {@code limit}, or -1. */
        int matchForward(String value, int from, int limit) {
            if (literal != null) {
                return from + literal.length() <= limit && value.startsWith(literal, from)
                        ? from + literal.length()
                        : -1;
            }
            int i = from;
            for (int e : elements) {
                if (i >= limit) {
                    return -1;
                }
                int c = value.codePointAt(i);
                if (e != ANY_ONE && e != c) {
                    return -1;
                }
                i += Character.charCount(c);
            }
            return i;
        }

        /** The start of this segment matched so as to end at {@code end}, not before {@code floor}, or -1. */
        int matchBackward(String value, int end, int floor) {
            if (literal != null) {
                int start = end - literal.length();
                return start >= floor && value.startsWith(literal, start) ? start : -1;
            }
            int i = end;
            for (int k = elements.length - 1; k >= 0; k--) {
                if (i <= floor) {
                    return -1;
                }
                int c = value.codePointBefore(i);
                if (elements[k] != ANY_ONE && elements[k] != c) {
                    return -1;
                }
                i -= Character.charCount(c);
            }
            return i >= floor ? i : -1;
        }

        /** The end of the leftmost match of this segment within [from, limit), or -1. */
        int find(String value, int from, int limit) {
            if (literal != null) {
                int at = value.indexOf(literal, from);
                return at >= 0 && at + literal.length() <= limit ? at + literal.length() : -1;
            }
            int i = from;
            while (i < limit) {
                int end = matchForward(value, i, limit);
                if (end >= 0) {
                    return end;
                }
                i += Character.charCount(value.codePointAt(i));
            }
            return -1;
        }
    }
}
