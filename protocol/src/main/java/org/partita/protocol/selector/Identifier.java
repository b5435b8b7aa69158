package org.partita.protocol.selector;

/** A header or property reference; absent ones are NULL. */
record Identifier(String name, int position) implements Node {

    @Override
    public Object eval(SelectorContext ctx) {
        return ctx.value(name);
    }

    @Override
    public Type type() {
        return Type.ANY;
    }
}
