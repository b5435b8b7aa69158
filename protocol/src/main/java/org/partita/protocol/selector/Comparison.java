package org.partita.protocol.selector;

/** {@code left op right} with op one of = <> < <= > >=. */
record Comparison(Values.Op op, Node left, Node right) implements Node {

    @Override
    public Object eval(SelectorContext ctx) {
        Object l = left.eval(ctx);
        if (l == null) {
            return null;
        }
        return Values.compare(l, right.eval(ctx), op);
    }

    @Override
    public Type type() {
        return Type.BOOLEAN;
    }

    @Override
    public int position() {
        return left.position();
    }
}
