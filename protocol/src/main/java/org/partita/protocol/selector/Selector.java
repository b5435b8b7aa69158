package org.partita.protocol.selector;

/**
 * A parsed JMS message selector (Jakarta Messaging 3.1, section 3.8.1). Instances are immutable
 * and thread-safe: parse once, then call {@link #matches} for every message.
 *
 * <p>Evaluation follows SQL three-valued logic and a message is selected only when the selector
 * evaluates to TRUE. NULL (an absent identifier) makes comparisons, arithmetic, BETWEEN, IN and
 * LIKE UNKNOWN; comparing values of unlike types (string, numeric, boolean) is FALSE, whatever the
 * operator, the negated forms of BETWEEN, IN and LIKE included; arithmetic on a non-numeric value
 * or a division by zero is NULL. Numbers compare after Java numeric promotion, strings never
 * convert to numbers. Numeric literals are written as in Java ({@code 10L}, {@code 035},
 * {@code 0x1d}, {@code 2.5e3}, {@code 1.5f}). Comparing a boolean with a number ({@code TRUE = 0})
 * is a mistake the parser refuses, as are ordering comparisons and arithmetic on non-numbers.
 */
public final class Selector {

    private static final Selector MATCH_ALL = new Selector("", null);

    private final String text;
    /** Null for the selector that matches every message. */
    private final Node root;

    private Selector(String text, Node root) {
        this.text = text;
        this.root = root;
    }

    /**
     * Parses {@code text}.
     *
     * @return the shared selector that matches every message when text is null or blank
     * @throws SelectorException when text is not a valid selector; its position tells where
     */
    public static Selector parse(String text) throws SelectorException {
        if (text == null || text.isBlank()) {
            return MATCH_ALL;
        }
        return new Selector(text, Parser.parse(text));
    }

    /** The selector that matches every message. */
    public static Selector matchAll() {
        return MATCH_ALL;
    }

    /** Whether the selector evaluates to TRUE for the message that {@code ctx} describes. */
    public boolean matches(SelectorContext ctx) {
        return root == null || Boolean.TRUE.equals(root.eval(ctx));
    }

    /** Whether this selector matches every message, which lets a caller skip the evaluation. */
    public boolean matchesAll() {
        return root == null;
    }

    /** The selector text as given to {@link #parse}; empty for the match-all selector. */
    public String text() {
        return text;
    }

    /** TRUE, FALSE or null for UNKNOWN. */
    Boolean evaluate(SelectorContext ctx) {
        return root == null ? Boolean.TRUE : Logic.asBoolean(root.eval(ctx));
    }

    @Override
    public String toString() {
        return "Selector[" + text + "]";
    }
}
