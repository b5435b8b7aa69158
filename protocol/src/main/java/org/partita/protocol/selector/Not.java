package org.partita.protocol.selector;

/** {@code NOT operand}: UNKNOWN stays UNKNOWN. */
record Not(Node operand, int position) implements Node {

    @Override
    public Object eval(SelectorContext ctx) {
        return Logic.not(Logic.asBoolean(operand.eval(ctx)));
    }

    @Override
    public Type type() {
        return Type.BOOLEAN;
    }
}
