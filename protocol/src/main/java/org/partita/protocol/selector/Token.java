package org.partita.protocol.selector;

/**
 * One lexical token.
 *
 * @param text     the source text of the token, as written
 * @param value    identifier name, unescaped string content or numeric text; null otherwise
 * @param position 0-based offset of the first character in the selector
 */
record Token(Kind kind, String text, String value, int position) {

    enum Kind {
        IDENTIFIER,
        STRING,
        EXACT,
        APPROX,
        NULL,
        TRUE,
        FALSE,
        NOT,
        AND,
        OR,
        BETWEEN,
        LIKE,
        IN,
        IS,
        ESCAPE,
        EQ,
        NE,
        LT,
        LE,
        GT,
        GE,
        PLUS,
        MINUS,
        STAR,
        SLASH,
        LPAREN,
        RPAREN,
        COMMA,
        EOF
    }

    /** How the token is named in error messages. */
    String describe() {
        if (kind == Kind.EOF) {
            return "end of selector";
        }
        String shown = text.length() > 40 ? text.substring(0, 37) + "..." : text;
        return kind == Kind.STRING ? shown : "'" + shown + "'";
    }
}
