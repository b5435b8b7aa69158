package org.partita.protocol.selector;

import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * Numeric literals in Java syntax (Jakarta Messaging 3.1, 3.8.1.1): exact literals are Java integer
 * literals (decimal, hexadecimal {@code 0x1d}, octal {@code 035}, binary {@code 0b11}, an optional
 * {@code L} or {@code l} suffix, underscores between digits) and always have the range of
 * {@code long}; approximate literals are Java floating-point literals (exponents, {@code f}/{@code F}
 * and {@code d}/{@code D} suffixes, hexadecimal {@code 0x1.8p1}). A {@code float} literal keeps its
 * float value, so {@code 0.1f} compares as Java compares {@code 0.1f} with a double.
 */
final class NumericLiteral {
    private static final String DIGITS = "[0-9](?:[0-9_]*[0-9])?";
    private static final String HEX_DIGITS = "[0-9a-fA-F](?:[0-9a-fA-F_]*[0-9a-fA-F])?";
    private static final Pattern DECIMAL = Pattern.compile("(?:0|[1-9](?:[0-9_]*[0-9])?)[lL]?");
    private static final Pattern HEX = Pattern.compile("0[xX](" + HEX_DIGITS + ")[lL]?");
    private static final Pattern OCTAL = Pattern.compile("0_*([0-7](?:[0-7_]*[0-7])?)[lL]?");
    private static final Pattern BINARY = Pattern.compile("0[bB]([01](?:[01_]*[01])?)[lL]?");
    private static final String EXPONENT = "(?:[eE][+-]?" + DIGITS + ")";
    private static final Pattern DECIMAL_FLOAT =
            Pattern.compile("(?:" + DIGITS + "\\.(?:" + DIGITS + ")?" + EXPONENT + "?[fFdD]?"
                    + "|\\." + DIGITS + EXPONENT + "?[fFdD]?"
                    + "|" + DIGITS + EXPONENT + "[fFdD]?"
                    + "|" + DIGITS + EXPONENT + "?[fFdD])");
    private static final Pattern HEX_FLOAT = Pattern.compile("0[xX](?:" + HEX_DIGITS + "\\.?|(?:" + HEX_DIGITS + ")?\\."
            + HEX_DIGITS + ")[pP][+-]?" + DIGITS + "[fFdD]?");

    private NumericLiteral() {}

    /** Whether {@code text} (a whole token) is an approximate literal rather than an exact one. */
    static boolean isApproximate(String text) {
        return DECIMAL_FLOAT.matcher(text).matches() || HEX_FLOAT.matcher(text).matches();
    }

    /** Whether {@code text} is a literal of either kind. */
    static boolean isValid(String text) {
        return isApproximate(text)
                || DECIMAL.matcher(text).matches()
                || HEX.matcher(text).matches()
                || OCTAL.matcher(text).matches()
                || BINARY.matcher(text).matches();
    }

    /**
     * The value of an exact literal, negated when {@code negative} (the sign is folded in so that
     * {@code -9223372036854775808L} is representable, as in Java).
     *
     * @throws ArithmeticException when the value is outside the range of long
     */
    static long exact(String text, boolean negative) {
        String t = text.replace("_", "");
        if (t.endsWith("l") || t.endsWith("L")) {
            t = t.substring(0, t.length() - 1);
        }
        BigInteger magnitude;
        if (t.startsWith("0x") || t.startsWith("0X")) {
            magnitude = unsigned64(new BigInteger(t.substring(2), 16));
        } else if (t.startsWith("0b") || t.startsWith("0B")) {
            magnitude = unsigned64(new BigInteger(t.substring(2), 2));
        } else if (t.length() > 1 && t.startsWith("0")) {
            magnitude = unsigned64(new BigInteger(t.substring(1), 8));
        } else {
            // decimal: a long's range, one more below zero
            BigInteger v = new BigInteger(negative ? "-" + t : t);
            if (v.bitLength() > 63) {
                throw new ArithmeticException("out of the range of long");
            }
            return v.longValue();
        }
        long bits = magnitude.longValue(); // hex, octal and binary literals may use all 64 bits, as in Java
        return negative ? -bits : bits;
    }

    private static BigInteger unsigned64(BigInteger v) {
        if (v.bitLength() > 64) {
            throw new ArithmeticException("out of the range of long");
        }
        return v;
    }

    /**
     * The value of an approximate literal: a Float for an {@code f} suffix, else a Double.
     *
     * @throws ArithmeticException when the value is infinite, or when a literal with non-zero digits
     *                             rounds to zero (both compile errors in Java)
     */
    static Number approximate(String text) {
        String t = text.replace("_", "");
        boolean isFloat = t.endsWith("f") || t.endsWith("F");
        double value = isFloat ? Float.parseFloat(t) : Double.parseDouble(t);
        if (Double.isInfinite(value)) {
            throw new ArithmeticException("out of the range of " + (isFloat ? "float" : "double"));
        }
        if (value == 0 && hasNonZeroDigit(t)) {
            throw new ArithmeticException("too small for a " + (isFloat ? "float" : "double"));
        }
        return isFloat ? (Number) (float) value : (Number) value;
    }

    private static boolean hasNonZeroDigit(String t) {
        boolean hex = t.startsWith("0x") || t.startsWith("0X");
        String mantissa = hex ? t.substring(2).split("[pP]")[0] : t.split("[eE]")[0];
        for (char c : mantissa.toCharArray()) {
            if ((c >= '1' && c <= '9') || (hex && Character.digit(c, 16) > 0)) {
                return true;
            }
        }
        return false;
    }
}
