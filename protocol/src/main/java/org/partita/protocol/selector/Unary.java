package org.partita.protocol.selector;

/** Unary minus ({@code negate}) or plus applied to a value that is only known at evaluation. */
record Unary(boolean negate, Node operand, int position) implements Node {

    @Override
    public Object eval(SelectorContext ctx) {
        Object value = operand.eval(ctx);
        if (negate) {
            return Values.negate(value);
        }
        return Values.numeric(Values.kind(value)) ? value : null;
    }

    @Override
    public Type type() {
        return Type.NUMERIC;
    }
}
