package org.partita.protocol.selector;

/** SQL three-valued logic on {@link Boolean}, null being UNKNOWN. */
final class Logic {

    private Logic() {}

    /** A value used as a condition: booleans are themselves, anything else is UNKNOWN. */
    static Boolean asBoolean(Object value) {
        return value instanceof Boolean b ? b : null;
    }

    static Boolean not(Boolean value) {
        return value == null ? null : !value;
    }

    static Boolean and(Boolean left, Boolean right) {
        if ((left != null && !left) || (right != null && !right)) {
            return Boolean.FALSE;
        }
        return left == null || right == null ? null : Boolean.TRUE;
    }

    static Boolean or(Boolean left, Boolean right) {
        if ((left != null && left) || (right != null && right)) {
            return Boolean.TRUE;
        }
        return left == null || right == null ? null : Boolean.FALSE;
    }
}
