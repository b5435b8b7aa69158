package org.partita.protocol.selector;

/**
 * Comparison and arithmetic on selector values, following Java numeric promotion: byte, short,
 * int and long operands are computed as long, as soon as a float or double is involved as double.
 */
final class Values {

    enum Op {
        EQ("="),
        NE("<>"),
        LT("<"),
        LE("<="),
        GT(">"),
        GE(">=");

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        boolean ordering() {
            return this != EQ && this != NE;
        }
    }

    static final int OTHER = 0;
    static final int INTEGRAL = 1;
    static final int FLOATING = 2;
    static final int STRING = 3;
    static final int BOOLEAN = 4;

    private Values() {}

    static int kind(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return INTEGRAL;
        }
        if (value instanceof Double || value instanceof Float) {
            return FLOATING;
        }
        if (value instanceof String) {
            return STRING;
        }
        if (value instanceof Boolean) {
            return BOOLEAN;
        }
        return OTHER;
    }

    static boolean numeric(int kind) {
        return kind == INTEGRAL || kind == FLOATING;
    }

    /**
     * {@code left op right}: UNKNOWN (null) when either side is NULL, FALSE when the two values are
     * not of like types (string, boolean, numeric) or when strings or booleans are ordered.
     */
    static Boolean compare(Object left, Object right, Op op) {
        if (left == null || right == null) {
            return null;
        }
        int lk = kind(left);
        int rk = kind(right);
        if (numeric(lk) && numeric(rk)) {
            if (lk == INTEGRAL && rk == INTEGRAL) {
                return compareLongs(((Number) left).longValue(), ((Number) right).longValue(), op);
            }
            return compareDoubles(((Number) left).doubleValue(), ((Number) right).doubleValue(), op);
        }
        if (lk != rk || lk == OTHER || op.ordering()) {
            return Boolean.FALSE;
        }
        boolean equal = left.equals(right);
        return op == Op.EQ ? equal : !equal;
    }

    private static Boolean compareLongs(long a, long b, Op op) {
        return switch (op) {
            case EQ -> a == b;
            case NE -> a != b;
            case LT -> a < b;
            case LE -> a <= b;
            case GT -> a > b;
            case GE -> a >= b;
        };
    }

    private static Boolean compareDoubles(double a, double b, Op op) {
        return switch (op) {
            case EQ -> a == b;
            case NE -> a != b;
            case LT -> a < b;
            case LE -> a <= b;
            case GT -> a > b;
            case GE -> a >= b;
        };
    }

    /**
     * {@code left op right} for op one of + - * /: NULL when either side is NULL or not numeric, or
     * on a division by zero. Long arithmetic wraps around on overflow as in Java.
     */
    static Object arithmetic(char op, Object left, Object right) {
        int lk = kind(left);
        int rk = kind(right);
        if (!numeric(lk) || !numeric(rk)) {
            return null;
        }
        if (lk == INTEGRAL && rk == INTEGRAL) {
            long a = ((Number) left).longValue();
            long b = ((Number) right).longValue();
            return switch (op) {
                case '+' -> a + b;
                case '-' -> a - b;
                case '*' -> a * b;
                default -> b == 0 ? null : (Object) (a / b);
            };
        }
        double a = ((Number) left).doubleValue();
        double b = ((Number) right).doubleValue();
        return switch (op) {
            case '+' -> a + b;
            case '-' -> a - b;
            case '*' -> a * b;
            default -> b == 0 ? null : (Object) (a / b);
        };
    }

    /** {@code -value}, or NULL when value is NULL or not numeric. */
    static Object negate(Object value) {
        return switch (kind(value)) {
            case INTEGRAL -> -((Number) value).longValue();
            case FLOATING -> -((Number) value).doubleValue();
            default -> null;
        };
    }
}
