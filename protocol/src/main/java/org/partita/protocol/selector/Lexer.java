package org.partita.protocol.selector;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.partita.protocol.selector.Token.Kind;

/** Splits a selector into tokens. Keywords are case-insensitive, identifiers case-sensitive. */
final class Lexer {

    private static final Map<String, Kind> KEYWORDS = Map.ofEntries(
            Map.entry("NULL", Kind.NULL),
            Map.entry("TRUE", Kind.TRUE),
            Map.entry("FALSE", Kind.FALSE),
            Map.entry("NOT", Kind.NOT),
            Map.entry("AND", Kind.AND),
            Map.entry("OR", Kind.OR),
            Map.entry("BETWEEN", Kind.BETWEEN),
            Map.entry("LIKE", Kind.LIKE),
            Map.entry("IN", Kind.IN),
            Map.entry("IS", Kind.IS),
            Map.entry("ESCAPE", Kind.ESCAPE));

    private final String src;
    private int pos;

    private Lexer(String src) {
        this.src = src;
    }

    static List<Token> tokenize(String src) throws SelectorException {
        Lexer lexer = new Lexer(src);
        List<Token> tokens = new ArrayList<>();
        Token token;
        do {
            token = lexer.next();
            tokens.add(token);
        } while (token.kind() != Kind.EOF);
        return tokens;
    }

    private Token next() throws SelectorException {
        while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) {
            pos++;
        }
        if (pos >= src.length()) {
            return new Token(Kind.EOF, "", null, src.length());
        }
        int start = pos;
        int c = src.codePointAt(pos);
        if (c == '\'') {
            return string(start);
        }
        if (isDigit(c) || (c == '.' && pos + 1 < src.length() && isDigit(src.charAt(pos + 1)))) {
            return number(start);
        }
        if (Character.isJavaIdentifierStart(c)) {
            return word(start);
        }
        pos++;
        switch (c) {
            case '=':
                return symbol(Kind.EQ, start);
            case '+':
                return symbol(Kind.PLUS, start);
            case '-':
                return symbol(Kind.MINUS, start);
            case '*':
                return symbol(Kind.STAR, start);
            case '/':
                return symbol(Kind.SLASH, start);
            case '(':
                return symbol(Kind.LPAREN, start);
            case ')':
                return symbol(Kind.RPAREN, start);
            case ',':
                return symbol(Kind.COMMA, start);
            case '<':
                if (peekChar('>')) {
                    return symbol(Kind.NE, start);
                }
                return peekChar('=') ? symbol(Kind.LE, start) : symbol(Kind.LT, start);
            case '>':
                return peekChar('=') ? symbol(Kind.GE, start) : symbol(Kind.GT, start);
            case '!':
                if (peekChar('=')) {
                    throw new SelectorException("invalid operator '!=' (use '<>')", start);
                }
                break;
            default:
                break;
        }
        throw new SelectorException("invalid character '" + new String(Character.toChars(c)) + "'", start);
    }

    private boolean peekChar(char expected) {
        if (pos < src.length() && src.charAt(pos) == expected) {
            pos++;
            return true;
        }
        return false;
    }

    private Token symbol(Kind kind, int start) {
        return new Token(kind, src.substring(start, pos), null, start);
    }

    private Token string(int start) throws SelectorException {
        StringBuilder content = new StringBuilder();
        pos++;
        while (true) {
            int quote = src.indexOf('\'', pos);
            if (quote < 0) {
                throw new SelectorException("unterminated string literal", start);
            }
            content.append(src, pos, quote);
            pos = quote + 1;
            if (pos < src.length() && src.charAt(pos) == '\'') {
                content.append('\'');
                pos++;
            } else {
                return new Token(Kind.STRING, src.substring(start, pos), content.toString(), start);
            }
        }
    }

    /**
     * A numeric literal in Java syntax ({@link NumericLiteral}): the token runs over letters, digits,
     * underscores and dots, and over a sign right after an exponent marker; then it must be a
     * literal as a whole.
     */
    private Token number(int start) throws SelectorException {
        boolean hex = src.startsWith("0x", start) || src.startsWith("0X", start);
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (Character.isJavaIdentifierPart(c) || c == '.') {
                pos++;
            } else if ((c == '+' || c == '-') && isExponentMarker(src.charAt(pos - 1), hex)) {
                pos++;
            } else {
                break;
            }
        }
        String text = src.substring(start, pos);
        if (!NumericLiteral.isValid(text)) {
            char last = text.charAt(text.length() - 1);
            boolean danglingExponent = isExponentMarker(last, hex)
                    || ((last == '+' || last == '-') && isExponentMarker(text.charAt(text.length() - 2), hex));
            throw new SelectorException(
                    (danglingExponent ? "malformed exponent in numeric literal '" : "invalid numeric literal '") + text
                            + "'",
                    start);
        }
        return new Token(NumericLiteral.isApproximate(text) ? Kind.APPROX : Kind.EXACT, text, text, start);
    }

    private static boolean isExponentMarker(char c, boolean hex) {
        return hex ? c == 'p' || c == 'P' : c == 'e' || c == 'E';
    }

    /** Keywords are matched on ASCII only: no locale or Unicode case folding can create one. */
    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private Token word(int start) {
        pos += Character.charCount(src.codePointAt(pos));
        while (pos < src.length()) {
            int c = src.codePointAt(pos);
            if (!Character.isJavaIdentifierPart(c)) {
                break;
            }
            pos += Character.charCount(c);
        }
        String text = src.substring(start, pos);
        Kind keyword = isAscii(text) ? KEYWORDS.get(text.toUpperCase(Locale.ROOT)) : null;
        return keyword != null ? new Token(keyword, text, null, start) : new Token(Kind.IDENTIFIER, text, text, start);
    }
}
