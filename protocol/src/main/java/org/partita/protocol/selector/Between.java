package org.partita.protocol.selector;

import org.partita.protocol.selector.Values.Op;

/**
 * {@code value [NOT] BETWEEN low AND high}, which is {@code value >= low AND value <= high}, and
 * with NOT {@code value < low OR value > high}, as the specification defines them.
 */
record Between(Node value, Node low, Node high, boolean negated) implements Node {

    @Override
    public Object eval(SelectorContext ctx) {
        Object v = value.eval(ctx);
        if (v == null) {
            return null;
        }
        Object lo = low.eval(ctx);
        Object hi = high.eval(ctx);
        if (negated) {
            return Logic.or(Values.compare(v, lo, Op.LT), Values.compare(v, hi, Op.GT));
        }
        return Logic.and(Values.compare(v, lo, Op.GE), Values.compare(v, hi, Op.LE));
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
