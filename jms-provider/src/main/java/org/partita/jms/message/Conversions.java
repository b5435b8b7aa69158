package org.partita.jms.message;

import jakarta.jms.MessageFormatException;

/**
 * The value conversions the spec allows when a value written as one type is read as another
 * (section 3.5.4 for properties, section 3.11.3 for map and stream bodies). Properties can never
 * hold a {@code Character} or a {@code byte[]}, so one table serves both.
 *
 * <p>A missing or null value is handed to the wrapper's {@code valueOf(String)} because the spec says
 * reading null as a primitive must behave exactly like that call: {@code false} for boolean,
 * {@link NumberFormatException} for the integral types and {@link NullPointerException} for float
 * and double (which is what {@code Float.valueOf(null)} throws, and what the TCK checks). There is no
 * {@code Character.valueOf(String)}, so null read as a char is a {@link NullPointerException} too.
 */
final class Conversions {
    private Conversions() {}

    static boolean toBoolean(Object v) throws MessageFormatException {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v == null || v instanceof String) {
            return Boolean.valueOf((String) v);
        }
        throw cannot(v, "boolean");
    }

    static byte toByte(Object v) throws MessageFormatException {
        if (v instanceof Byte b) {
            return b;
        }
        if (v == null || v instanceof String) {
            return Byte.valueOf((String) v);
        }
        throw cannot(v, "byte");
    }

    static short toShort(Object v) throws MessageFormatException {
        if (v instanceof Short || v instanceof Byte) {
            return ((Number) v).shortValue();
        }
        if (v == null || v instanceof String) {
            return Short.valueOf((String) v);
        }
        throw cannot(v, "short");
    }

    static int toInt(Object v) throws MessageFormatException {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).intValue();
        }
        if (v == null || v instanceof String) {
            return Integer.valueOf((String) v);
        }
        throw cannot(v, "int");
    }

    static long toLong(Object v) throws MessageFormatException {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v == null || v instanceof String) {
            return Long.valueOf((String) v);
        }
        throw cannot(v, "long");
    }

    static float toFloat(Object v) throws MessageFormatException {
        if (v instanceof Float f) {
            return f;
        }
        if (v == null || v instanceof String) {
            return Float.valueOf((String) v);
        }
        throw cannot(v, "float");
    }

    static double toDouble(Object v) throws MessageFormatException {
        if (v instanceof Double || v instanceof Float) {
            return ((Number) v).doubleValue();
        }
        if (v == null || v instanceof String) {
            return Double.valueOf((String) v);
        }
        throw cannot(v, "double");
    }

    static char toChar(Object v) throws MessageFormatException {
        if (v instanceof Character c) {
            return c;
        }
        if (v == null) {
            throw new NullPointerException("a null value cannot be read as a char");
        }
        throw cannot(v, "char");
    }

    static String toText(Object v) throws MessageFormatException {
        if (v == null) {
            return null;
        }
        if (v instanceof byte[]) {
            throw cannot(v, "String");
        }
        return v.toString();
    }

    static byte[] toBytes(Object v) throws MessageFormatException {
        if (v == null) {
            return null;
        }
        if (v instanceof byte[] b) {
            return b.clone();
        }
        throw cannot(v, "byte[]");
    }

    /** Values that may be stored as a property. */
    static boolean isPropertyType(Object v) {
        return v instanceof Boolean
                || v instanceof Byte
                || v instanceof Short
                || v instanceof Integer
                || v instanceof Long
                || v instanceof Float
                || v instanceof Double
                || v instanceof String;
    }

    /** Values that may be stored in a map or stream body: the property types plus char and byte[]. */
    static boolean isBodyType(Object v) {
        return isPropertyType(v) || v instanceof Character || v instanceof byte[];
    }

    /** Copies byte arrays so the caller cannot change a value after it has been stored or read. */
    static Object defensiveCopy(Object v) {
        return v instanceof byte[] b ? b.clone() : v;
    }

    private static MessageFormatException cannot(Object v, String target) {
        String type = v instanceof byte[] ? "byte[]" : v.getClass().getSimpleName();
        return new MessageFormatException("a " + type + " value cannot be read as " + target);
    }
}
