package org.partita.protocol.selector;

/**
 * {@code identifier [NOT] LIKE pattern [ESCAPE c]}: UNKNOWN when the identifier is NULL and, as
 * any comparison of values of unlike types, FALSE when it is not a string (with or without NOT).
 */
record Like(Node value, LikePattern pattern, boolean negated) implements Node {

    @Override
    public Object eval(SelectorContext ctx) {
        Object v = value.eval(ctx);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            return Boolean.FALSE;
        }
        return pattern.matches(s) != negated;
    }

    @Override
    public Type type() {
        return Type.BOOLEAN;
    }

    @Override
    public int position() {
        return value.position();
    }
}
