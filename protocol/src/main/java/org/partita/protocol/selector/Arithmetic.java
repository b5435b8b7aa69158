package org.partita.protocol.selector;

/** {@code left op right} with op one of + - * /. */
record Arithmetic(char op, Node left, Node right) implements Node {

    @Override
    public Object eval(SelectorContext ctx) {
        Object l = left.eval(ctx);
        if (l == null) {
            return null;
        }
        return Values.arithmetic(op, l, right.eval(ctx));
    }

    @Override
    public Type type() {
        return Type.NUMERIC;
    }

    @Override
    public int position() {
        return left.position();
    }
}
