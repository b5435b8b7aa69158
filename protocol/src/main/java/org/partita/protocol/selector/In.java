package org.partita.protocol.selector;

import java.util.Set;

/**
 * {@code identifier [NOT] IN (string, ...)}: UNKNOWN when the identifier is NULL and, as any
 * comparison of values of unlike types, FALSE when it is not a string (with or without NOT).
 */
record In(Node value, Set<String> items, boolean negated) implements Node {

    In {
        items = Set.copyOf(items);
    }

    @Override
    public Object eval(SelectorContext ctx) {
        Object v = value.eval(ctx);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            return Boolean.FALSE;
        }
        return items.contains(s) != negated;
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
