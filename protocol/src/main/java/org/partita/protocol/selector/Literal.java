package org.partita.protocol.selector;

/** A string, numeric (Long or Double) or boolean literal. */
record Literal(Object value, Type type, int position) implements Node {

    @Override
    public Object eval(SelectorContext ctx) {
        return value;
    }
}
