package org.partita.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.protocol.selector.Token.Kind;

class LexerTest {

    private static List<Kind> kinds(String text) throws SelectorException {
        return Lexer.tokenize(text).stream().map(Token::kind).toList();
    }

    @Test
    void keywordsAreCaseInsensitiveIdentifiersAreNot() throws SelectorException {
        assertEquals(
                List.of(Kind.NOT, Kind.IDENTIFIER, Kind.AND, Kind.IDENTIFIER, Kind.OR, Kind.TRUE, Kind.EOF),
                kinds("not Notes aNd ANDY Or True"));
        assertEquals(
                List.of(Kind.NULL, Kind.FALSE, Kind.BETWEEN, Kind.LIKE, Kind.IN, Kind.IS, Kind.ESCAPE, Kind.EOF),
                kinds("Null false between like in is escape"));
        assertEquals("Notes", Lexer.tokenize("Notes").get(0).value());
    }

    @Test
    void nonAsciiLookalikesAreNotKeywords() throws SelectorException {
        // U+0131 (dotless i) upper-cases to 'I': "ın" must stay an identifier, not become IN
        assertEquals(List.of(Kind.IDENTIFIER, Kind.EOF), kinds("\u0131n"));
    }

    @Test
    void operators() throws SelectorException {
        assertEquals(
                List.of(
                        Kind.IDENTIFIER,
                        Kind.EQ,
                        Kind.NE,
                        Kind.LT,
                        Kind.LE,
                        Kind.GT,
                        Kind.GE,
                        Kind.PLUS,
                        Kind.MINUS,
                        Kind.STAR,
                        Kind.SLASH,
                        Kind.LPAREN,
                        Kind.RPAREN,
                        Kind.COMMA,
                        Kind.EOF),
                kinds("a=<><<=>>=+-*/(),"));
    }

    @Test
    void literals() throws SelectorException {
        List<Token> tokens = Lexer.tokenize("'it''s' '' 57 7E3 -57.9 7. .5 1.5e-3 2E+2");
        assertEquals(
                List.of(
                        Kind.STRING,
                        Kind.STRING,
                        Kind.EXACT,
                        Kind.APPROX,
                        Kind.MINUS,
                        Kind.APPROX,
                        Kind.APPROX,
                        Kind.APPROX,
                        Kind.APPROX,
                        Kind.APPROX,
                        Kind.EOF),
                tokens.stream().map(Token::kind).toList());
        assertEquals("it's", tokens.get(0).value());
        assertEquals("", tokens.get(1).value());
        assertEquals("57", tokens.get(2).value());
        assertEquals(18, tokens.get(4).position());
    }

    @Test
    void javaNumericLiteralsAreOneTokenEach() throws SelectorException {
        assertEquals(
                List.of(
                        Kind.EXACT,
                        Kind.EXACT,
                        Kind.EXACT,
                        Kind.EXACT,
                        Kind.APPROX,
                        Kind.APPROX,
                        Kind.APPROX,
                        Kind.APPROX,
                        Kind.EOF),
                kinds("12L 035 0x1d 1_000 1.5f 7d 1e+3F 0x1.8p-1"));
        // in a hexadecimal literal 'e' is a digit, so a sign after it is an operator
        assertEquals(List.of(Kind.EXACT, Kind.PLUS, Kind.EXACT, Kind.EOF), kinds("0x1e+5"));
    }

    @Test
    void endOfSelectorIsAtTheEnd() throws SelectorException {
        List<Token> tokens = Lexer.tokenize("a  ");
        assertEquals(3, tokens.get(1).position());
        assertEquals("end of selector", tokens.get(1).describe());
    }
}
