package org.partita.protocol.selector;

/** {@code value IS [NOT] NULL}: never UNKNOWN. */
record IsNull(Node value, boolean negated) implements Node {

    @Override
    public Object eval(SelectorContext ctx) {
        return (value.eval(ctx) == null) != negated;
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
