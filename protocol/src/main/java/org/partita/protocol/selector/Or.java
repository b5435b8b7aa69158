package org.partita.protocol.selector;

import java.util.List;

/**
 * {@code a OR b OR ...} with SQL three-valued logic: TRUE as soon as one operand is TRUE (the rest
 * is not evaluated), else UNKNOWN if one is UNKNOWN, else FALSE.
 */
record Or(List<Node> operands) implements Node {

    Or {
        operands = List.copyOf(operands);
    }

    @Override
    public Object eval(SelectorContext ctx) {
        Boolean result = Boolean.FALSE;
        for (Node operand : operands) {
            Boolean value = Logic.asBoolean(operand.eval(ctx));
            if (value == null) {
                result = null;
            } else if (value) {
                return Boolean.TRUE;
            }
        }
        return result;
    }

    @Override
    public Type type() {
        return Type.BOOLEAN;
    }

    @Override
    public int position() {
        return operands.get(0).position();
    }
}
