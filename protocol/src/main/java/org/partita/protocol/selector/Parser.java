package org.partita.protocol.selector;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.partita.protocol.selector.Node.Type;
import org.partita.protocol.selector.Token.Kind;

/**
 * Recursive-descent parser for the message selector grammar of Jakarta Messaging 3.1, section
 * 3.8.1, lowest precedence first:
 *
 * <pre>
 * selector   := or EOF                      (must be a condition)
 * or         := and { OR and }
 * and        := not { AND not }
 * not        := NOT not | predicate
 * predicate  := sum [ compare-op sum
 *                   | [NOT] BETWEEN sum AND sum
 *                   | [NOT] IN '(' string { ',' string } ')'
 *                   | [NOT] LIKE string [ ESCAPE string ]
 *                   | IS [NOT] NULL ]
 * sum        := product { (+|-) product }
 * product    := unary { (*|/) unary }
 * unary      := (+|-) unary | primary
 * primary    := identifier | string | number | TRUE | FALSE | '(' or ')'
 * </pre>
 *
 * <p>Operands are type-checked as far as literals and operators tell: a condition must be a
 * comparison, a boolean literal or an identifier (a boolean property); arithmetic and the
 * ordering comparisons take numeric operands only, BETWEEN too; IN and LIKE apply to an identifier.
 */
final class Parser {

    /** Bound on the nesting of parentheses, NOT and signs, which the parser handles by recursion. */
    static final int MAX_NESTING = 128;
    /** Bound on the depth of the tree, which the evaluation walks by recursion. */
    static final int MAX_DEPTH = 1000;

    private final List<Token> tokens;
    private int index;
    private int nesting;
    /** Depth of every composite node built so far, to keep evaluation recursion bounded. */
    private final Map<Node, Integer> depths = new IdentityHashMap<>();

    private Parser(List<Token> tokens) {
        this.tokens = tokens;
    }

    static Node parse(String text) throws SelectorException {
        Parser parser = new Parser(Lexer.tokenize(text));
        Node root = parser.or();
        if (parser.peek().kind() != Kind.EOF) {
            throw unexpected(parser.peek());
        }
        parser.requireCondition(root);
        return root;
    }

    private Node or() throws SelectorException {
        Node first = and();
        if (peek().kind() != Kind.OR) {
            return first;
        }
        List<Node> operands = new ArrayList<>();
        requireCondition(first);
        operands.add(first);
        while (accept(Kind.OR)) {
            Node operand = and();
            requireCondition(operand);
            operands.add(operand);
        }
        return built(new Or(operands), operands.toArray(new Node[0]));
    }

    private Node and() throws SelectorException {
        Node first = not();
        if (peek().kind() != Kind.AND) {
            return first;
        }
        List<Node> operands = new ArrayList<>();
        requireCondition(first);
        operands.add(first);
        while (accept(Kind.AND)) {
            Node operand = not();
            requireCondition(operand);
            operands.add(operand);
        }
        return built(new And(operands), operands.toArray(new Node[0]));
    }

    private Node not() throws SelectorException {
        if (peek().kind() == Kind.NOT) {
            Token not = next();
            enter(not);
            Node operand = not();
            nesting--;
            requireCondition(operand);
            return built(new Not(operand, not.position()), operand);
        }
        return predicate();
    }

    private Node predicate() throws SelectorException {
        Node left = sum();
        Token token = peek();
        switch (token.kind()) {
            case EQ:
                return comparison(Values.Op.EQ, left);
            case NE:
                return comparison(Values.Op.NE, left);
            case LT:
                return comparison(Values.Op.LT, left);
            case LE:
                return comparison(Values.Op.LE, left);
            case GT:
                return comparison(Values.Op.GT, left);
            case GE:
                return comparison(Values.Op.GE, left);
            case IS:
                next();
                boolean negated = accept(Kind.NOT);
                if (peek().kind() != Kind.NULL) {
                    throw expected(negated ? "NULL" : "NULL or NOT NULL", peek());
                }
                next();
                return built(new IsNull(left, negated), left);
            case NOT:
                next();
                return negatable(left, true);
            case BETWEEN:
            case IN:
            case LIKE:
                return negatable(left, false);
            default:
                return left;
        }
    }

    private Node negatable(Node left, boolean negated) throws SelectorException {
        Token keyword = next();
        return switch (keyword.kind()) {
            case BETWEEN -> between(left, negated);
            case IN -> in(left, negated, keyword);
            case LIKE -> like(left, negated, keyword);
            default -> throw expected("BETWEEN, IN or LIKE after NOT", keyword);
        };
    }

    private Node comparison(Values.Op op, Node left) throws SelectorException {
        next();
        Node right = sum();
        if (op.ordering()) {
            requireNumeric(left, "operator '" + op.symbol + "'");
            requireNumeric(right, "operator '" + op.symbol + "'");
        } else {
            requireComparable(left, right, op);
        }
        return built(new Comparison(op, left, right), left, right);
    }

    private Node between(Node value, boolean negated) throws SelectorException {
        Node low = sum();
        if (peek().kind() != Kind.AND) {
            throw expected("AND", peek());
        }
        next();
        Node high = sum();
        requireNumeric(value, "BETWEEN");
        requireNumeric(low, "BETWEEN");
        requireNumeric(high, "BETWEEN");
        return built(new Between(value, low, high, negated), value, low, high);
    }

    private Node in(Node value, boolean negated, Token keyword) throws SelectorException {
        requireIdentifier(value, keyword);
        if (peek().kind() != Kind.LPAREN) {
            throw expected("'(' after IN", peek());
        }
        next();
        Set<String> items = new LinkedHashSet<>();
        do {
            Token item = next();
            if (item.kind() != Kind.STRING) {
                throw expected("a string literal in the IN list", item);
            }
            items.add(item.value());
        } while (accept(Kind.COMMA));
        if (peek().kind() != Kind.RPAREN) {
            throw expected("',' or ')' in the IN list", peek());
        }
        next();
        return built(new In(value, items, negated), value);
    }

    private Node like(Node value, boolean negated, Token keyword) throws SelectorException {
        requireIdentifier(value, keyword);
        Token pattern = next();
        if (pattern.kind() != Kind.STRING) {
            throw expected("a string literal as LIKE pattern", pattern);
        }
        int escape = -1;
        if (accept(Kind.ESCAPE)) {
            Token escapeToken = next();
            if (escapeToken.kind() != Kind.STRING) {
                throw expected("a string literal after ESCAPE", escapeToken);
            }
            String text = escapeToken.value();
            if (text.isEmpty() || text.codePointCount(0, text.length()) != 1) {
                throw new SelectorException(
                        "ESCAPE must be a single character, found " + escapeToken.describe(), escapeToken.position());
            }
            escape = text.codePointAt(0);
        }
        try {
            return built(new Like(value, LikePattern.compile(pattern.value(), escape), negated), value);
        } catch (IllegalArgumentException e) {
            throw new SelectorException(e.getMessage(), pattern.position());
        }
    }

    private Node sum() throws SelectorException {
        Node left = product();
        while (peek().kind() == Kind.PLUS || peek().kind() == Kind.MINUS) {
            Token op = next();
            Node right = product();
            requireNumeric(left, "operator '" + op.text() + "'");
            requireNumeric(right, "operator '" + op.text() + "'");
            left = built(new Arithmetic(op.text().charAt(0), left, right), left, right);
        }
        return left;
    }

    private Node product() throws SelectorException {
        Node left = unary();
        while (peek().kind() == Kind.STAR || peek().kind() == Kind.SLASH) {
            Token op = next();
            Node right = unary();
            requireNumeric(left, "operator '" + op.text() + "'");
            requireNumeric(right, "operator '" + op.text() + "'");
            left = built(new Arithmetic(op.text().charAt(0), left, right), left, right);
        }
        return left;
    }

    private Node unary() throws SelectorException {
        Kind kind = peek().kind();
        if (kind != Kind.PLUS && kind != Kind.MINUS) {
            return primary();
        }
        Token sign = next();
        boolean negate = kind == Kind.MINUS;
        if (peek().kind() == Kind.EXACT) {
            // Folded here so that -9223372036854775808 (Long.MIN_VALUE) is representable.
            Token number = next();
            return new Literal(exact(number, negate), Type.NUMERIC, sign.position());
        }
        enter(sign);
        Node operand = unary();
        nesting--;
        requireNumeric(operand, "unary '" + sign.text() + "'");
        if (operand instanceof Literal literal) {
            Object value = negate ? Values.negate(literal.value()) : literal.value();
            return new Literal(value, Type.NUMERIC, sign.position());
        }
        return built(new Unary(negate, operand, sign.position()), operand);
    }

    private Node primary() throws SelectorException {
        Token token = next();
        switch (token.kind()) {
            case IDENTIFIER:
                return new Identifier(token.value(), token.position());
            case STRING:
                return new Literal(token.value(), Type.STRING, token.position());
            case EXACT:
                return new Literal(exact(token, false), Type.NUMERIC, token.position());
            case APPROX:
                return new Literal(approximate(token), Type.NUMERIC, token.position());
            case TRUE:
                return new Literal(Boolean.TRUE, Type.BOOLEAN, token.position());
            case FALSE:
                return new Literal(Boolean.FALSE, Type.BOOLEAN, token.position());
            case LPAREN:
                enter(token);
                Node inner = or();
                nesting--;
                if (peek().kind() != Kind.RPAREN) {
                    throw expected("')'", peek());
                }
                next();
                return inner;
            case NULL:
                throw new SelectorException("NULL is only allowed in IS NULL and IS NOT NULL", token.position());
            default:
                throw expected("an operand", token);
        }
    }

    private static Long exact(Token token, boolean negative) throws SelectorException {
        try {
            return NumericLiteral.exact(token.value(), negative);
        } catch (ArithmeticException e) {
            throw new SelectorException(
                    "numeric literal " + token.describe() + " is " + e.getMessage(), token.position());
        }
    }

    private static Number approximate(Token token) throws SelectorException {
        try {
            return NumericLiteral.approximate(token.value());
        } catch (ArithmeticException e) {
            throw new SelectorException(
                    "numeric literal " + token.describe() + " is " + e.getMessage(), token.position());
        }
    }

    /** A condition is needed; anything else means a comparison operator was missing before here. */
    private void requireCondition(Node node) throws SelectorException {
        if (node.type() == Type.NUMERIC || node.type() == Type.STRING) {
            throw expected("a comparison operator", peek());
        }
    }

    private static void requireNumeric(Node node, String operator) throws SelectorException {
        if (node.type() == Type.STRING || node.type() == Type.BOOLEAN) {
            throw new SelectorException(
                    operator + " requires numeric operands, found a "
                            + node.type().name().toLowerCase(Locale.ROOT) + " expression",
                    node.position());
        }
    }

    /**
     * A boolean never equals a number (3.8.1.1 compares like types only), so a selector that says
     * so, such as {@code TRUE = 0}, is a mistake the application hears of when it creates the
     * consumer, not a condition that silently never matches.
     */
    private static void requireComparable(Node left, Node right, Values.Op op) throws SelectorException {
        boolean booleanAndNumber = (left.type() == Type.BOOLEAN && right.type() == Type.NUMERIC)
                || (left.type() == Type.NUMERIC && right.type() == Type.BOOLEAN);
        if (booleanAndNumber) {
            throw new SelectorException(
                    "operator '" + op.symbol + "' cannot compare a boolean expression with a" + " numeric one",
                    right.position());
        }
    }

    private static void requireIdentifier(Node node, Token keyword) throws SelectorException {
        if (!(node instanceof Identifier)) {
            throw new SelectorException(
                    keyword.text().toUpperCase(Locale.ROOT) + " must follow an identifier", node.position());
        }
    }

    private void enter(Token token) throws SelectorException {
        if (++nesting > MAX_NESTING) {
            throw new SelectorException("selector nested too deeply", token.position());
        }
    }

    private Node built(Node node, Node... children) throws SelectorException {
        int depth = 0;
        for (Node child : children) {
            depth = Math.max(depth, depths.getOrDefault(child, 1));
        }
        if (depth + 1 > MAX_DEPTH) {
            throw new SelectorException("selector nested too deeply", node.position());
        }
        depths.put(node, depth + 1);
        return node;
    }

    private Token peek() {
        return tokens.get(index);
    }

    private Token next() {
        Token token = tokens.get(index);
        if (token.kind() != Kind.EOF) {
            index++;
        }
        return token;
    }

    private boolean accept(Kind kind) {
        if (peek().kind() == kind) {
            next();
            return true;
        }
        return false;
    }

    private static SelectorException unexpected(Token token) {
        return new SelectorException(
                token.kind() == Kind.EOF ? "unexpected end of selector" : "unexpected token " + token.describe(),
                token.position());
    }

    private static SelectorException expected(String what, Token found) {
        return new SelectorException("expected " + what + " but found " + found.describe(), found.position());
    }
}
