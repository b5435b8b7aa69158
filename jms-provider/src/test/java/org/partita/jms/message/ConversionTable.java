package org.partita.jms.message;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The conversion tables of the spec (3.5.4 for properties, 3.11.3 for map and stream bodies) as
 * data: a sample value for each type and the value expected when it is read as each other type,
 * or {@link #FAILS} where the spec requires a MessageFormatException.
 */
final class ConversionTable {
    enum Kind {
        BOOLEAN,
        BYTE,
        SHORT,
        CHAR,
        INT,
        LONG,
        FLOAT,
        DOUBLE,
        STRING,
        BYTES
    }

    static final Object FAILS = new Object() {
        @Override
        public String toString() {
            return "MessageFormatException";
        }
    };

    /** Properties have neither char nor byte[]. */
    static final Set<Kind> PROPERTY_KINDS = EnumSet.complementOf(EnumSet.of(Kind.CHAR, Kind.BYTES));

    private ConversionTable() {}

    static Object sample(Kind kind) {
        return switch (kind) {
            case BOOLEAN -> true;
            case BYTE -> (byte) 7;
            case SHORT -> (short) 7;
            case CHAR -> 'c';
            case INT -> 7;
            case LONG -> 7L;
            case FLOAT -> 7.5f;
            case DOUBLE -> 7.5;
            case STRING -> "7";
            case BYTES -> new byte[] {1, 2, 3};
        };
    }

    /** What reading {@code sample(from)} as {@code to} yields. */
    static Object expected(Kind from, Kind to) {
        if (from == to) {
            return sample(from);
        }
        if (to == Kind.STRING) {
            return from == Kind.BYTES ? FAILS : String.valueOf(sample(from));
        }
        return switch (from) {
            case STRING ->
                switch (to) {
                    case BOOLEAN -> false; // Boolean.valueOf("7")
                    case BYTE -> (byte) 7;
                    case SHORT -> (short) 7;
                    case INT -> 7;
                    case LONG -> 7L;
                    case FLOAT -> 7.0f;
                    case DOUBLE -> 7.0;
                    default -> FAILS;
                };
            case BYTE ->
                switch (to) {
                    case SHORT -> (short) 7;
                    case INT -> 7;
                    case LONG -> 7L;
                    default -> FAILS;
                };
            case SHORT ->
                switch (to) {
                    case INT -> 7;
                    case LONG -> 7L;
                    default -> FAILS;
                };
            case INT -> to == Kind.LONG ? 7L : FAILS;
            case FLOAT -> to == Kind.DOUBLE ? 7.5 : FAILS;
            default -> FAILS;
        };
    }

    static Stream<Arguments> cells(Set<Kind> kinds) {
        List<Arguments> cells = new ArrayList<>();
        for (Kind from : kinds) {
            for (Kind to : kinds) {
                cells.add(Arguments.of(from, to));
            }
        }
        return cells.stream();
    }

    static Stream<Arguments> propertyCells() {
        return cells(PROPERTY_KINDS);
    }

    static Stream<Arguments> bodyCells() {
        return cells(EnumSet.allOf(Kind.class));
    }
}
