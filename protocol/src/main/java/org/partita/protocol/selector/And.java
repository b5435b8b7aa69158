package org.partita.protocol.selector;

import java.util.List;

/**
 * {@code a AND b AND ...} with SQL three-valued logic: FALSE as soon as one operand is FALSE (the
 * rest is not evaluated), else UNKNOWN if one is UNKNOWN, else TRUE.
 */
record And(List<Node> operands) implements Node {

    And {
        operands = List.copyOf(operands);
    }

    @Override
    public Object eval(SelectorContext ctx) {
        Boolean result = Boolean.TRUE;
        for (Node operand : operands) {
            Boolean value = Logic.asBoolean(operand.eval(ctx));
            if (value == null) {
                result = null;
            } else if (!value) {
                return Boolean.FALSE;
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
