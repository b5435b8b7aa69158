package org.partita.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Invalid selectors: the exception must say what is wrong and where (0-based offset). */
class SelectorParseErrorTest {

    @ParameterizedTest(name = "[{0}] fails at {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            a = 1)                       | 5  | unexpected token ')'
            (a = 1                       | 6  | expected ')' but found end of selector
            ((a = 1)                     | 8  | expected ')' but found end of selector
            ()                           | 1  | expected an operand but found ')'
            a =                          | 3  | expected an operand but found end of selector
            a = AND b                    | 4  | expected an operand but found 'AND'
            = 1                          | 0  | expected an operand but found '='
            a = 1 AND                    | 9  | expected an operand but found end of selector
            OR a                         | 0  | expected an operand but found 'OR'
            a >= > 1                     | 5  | expected an operand but found '>'
            a = 1 = 2                    | 6  | unexpected token '='
            a = 1 b = 2                  | 6  | unexpected token 'b'
            and = 1                      | 0  | expected an operand but found 'and'
            Between = 1                  | 0  | expected an operand but found 'Between'
            a = NULL                     | 4  | NULL is only allowed in IS NULL and IS NOT NULL
            NULL IS NULL                 | 0  | NULL is only allowed
            """)
    void structure(String selector, int position, String message) {
        assertError(selector, position, message);
    }

    @ParameterizedTest(name = "[{0}] fails at {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            s = 'abc                     | 4  | unterminated string literal
            s = 'it''s                   | 4  | unterminated string literal
            a # 1                        | 2  | invalid character '#'
            a != 1                       | 2  | invalid operator '!=' (use '<>')
            a == 1                       | 3  | expected an operand but found '='
            a = 08                       | 4  | invalid numeric literal '08'
            a = 0x                       | 4  | invalid numeric literal '0x'
            a = 0xG1                     | 4  | invalid numeric literal '0xG1'
            a = 12LL                     | 4  | invalid numeric literal '12LL'
            a = 1.5L                     | 4  | invalid numeric literal '1.5L'
            a = 1_                       | 4  | invalid numeric literal '1_'
            a = 0b102                    | 4  | invalid numeric literal '0b102'
            a = 0x1.8                    | 4  | invalid numeric literal '0x1.8'
            a = 0x1p                     | 4  | malformed exponent in numeric literal '0x1p'
            a = 0x1FFFFFFFFFFFFFFFF      | 4  | out of the range of long
            a = 9223372036854775808L     | 4  | out of the range of long
            a = 1e-999                   | 4  | too small for a double
            a = 1e39f                    | 4  | out of the range of float
            a = 1e                       | 4  | malformed exponent in numeric literal '1e'
            a = 1e+ AND b                | 4  | malformed exponent
            a = 1.2.3                    | 4  | invalid numeric literal '1.2.3'
            a = .                        | 4  | invalid character '.'
            a = 9223372036854775808      | 4  | out of the range of long
            a = -9223372036854775809     | 5  | out of the range of long
            a = 1e999                    | 4  | out of the range of double
            a = ?                        | 4  | invalid character '?'
            a = {1}                      | 4  | invalid character '{'
            """)
    void lexical(String selector, int position, String message) {
        assertError(selector, position, message);
    }

    @ParameterizedTest(name = "[{0}] fails at {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            'a' > 'b'                    | 0  | operator '>' requires numeric operands, found a string expression
            a > 'b'                      | 4  | operator '>' requires numeric operands, found a string expression
            'b' <= a                     | 0  | operator '<=' requires numeric operands
            a < TRUE                     | 4  | operator '<' requires numeric operands, found a boolean expression
            (a = 1) >= 1                 | 1  | operator '>=' requires numeric operands, found a boolean expression
            TRUE + 1 = 2                 | 0  | operator '+' requires numeric operands, found a boolean expression
            a + 'x' = 1                  | 4  | operator '+' requires numeric operands, found a string expression
            2 * FALSE = 0                | 4  | operator '*' requires numeric operands
            a / 'x' = 1                  | 4  | operator '/' requires numeric operands
            -'x' = 1                     | 1  | unary '-' requires numeric operands
            - TRUE = 1                   | 2  | unary '-' requires numeric operands
            a BETWEEN 'a' AND 'z'        | 10 | BETWEEN requires numeric operands
            'm' BETWEEN 1 AND 2          | 0  | BETWEEN requires numeric operands
            a BETWEEN 1 AND TRUE         | 16 | BETWEEN requires numeric operands
            TRUE = 0                     | 7  | operator '=' cannot compare a boolean expression with a numeric one
            FALSE <> 1                   | 9  | operator '<>' cannot compare a boolean expression with a numeric one
            0 = TRUE                     | 4  | operator '=' cannot compare a boolean expression with a numeric one
            TRUE = a + 1                 | 7  | cannot compare a boolean expression with a numeric one
            (a > 1) = 1.5                | 10 | cannot compare a boolean expression with a numeric one
            -a = (b = 1)                 | 6  | cannot compare a boolean expression with a numeric one
            """)
    void typeErrors(String selector, int position, String message) {
        assertError(selector, position, message);
    }

    @ParameterizedTest(name = "[{0}] fails at {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            a + 1                        | 5  | expected a comparison operator but found end of selector
            a * 2 AND b                  | 6  | expected a comparison operator but found 'AND'
            b OR a - 1                   | 10 | expected a comparison operator but found end of selector
            'abc'                        | 5  | expected a comparison operator
            42                           | 2  | expected a comparison operator
            -1.5                         | 4  | expected a comparison operator
            NOT 5                        | 5  | expected a comparison operator
            NOT 'x' OR a                 | 8  | expected a comparison operator but found 'OR'
            (a + 1)                      | 7  | expected a comparison operator
            (a + 1) AND b                | 8  | expected a comparison operator but found 'AND'
            """)
    void notACondition(String selector, int position, String message) {
        assertError(selector, position, message);
    }

    @ParameterizedTest(name = "[{0}] fails at {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            a LIKE b                        | 7  | expected a string literal as LIKE pattern but found 'b'
            a LIKE 5                        | 7  | expected a string literal as LIKE pattern
            a NOT LIKE                      | 10 | expected a string literal as LIKE pattern but found end of selector
            a LIKE 'x' ESCAPE 'ab'          | 18 | ESCAPE must be a single character, found 'ab'
            a LIKE 'x' ESCAPE ''            | 18 | ESCAPE must be a single character
            a LIKE 'x' ESCAPE b             | 18 | expected a string literal after ESCAPE but found 'b'
            a LIKE 'x\\' ESCAPE '\\'        | 7  | LIKE pattern ends with its escape character
            a LIKE 'x\\y' ESCAPE '\\'       | 7  | must be followed by '%', '_' or itself, not 'y'
            a LIKE '1%%%' ESCAPE '%'        | 7  | LIKE pattern ends with its escape character
            1 LIKE 'x'                      | 0  | LIKE must follow an identifier
            a + 1 like 'x'                  | 0  | LIKE must follow an identifier
            'a' NOT LIKE 'x'                | 0  | LIKE must follow an identifier
            's' IN ('x')                    | 0  | IN must follow an identifier
            a IN (1, 2)                     | 6  | expected a string literal in the IN list but found '1'
            a IN ('x', 2)                   | 11 | expected a string literal in the IN list but found '2'
            a IN ('x', b)                   | 11 | expected a string literal in the IN list
            a IN ()                         | 6  | expected a string literal in the IN list but found ')'
            a IN ('x',)                     | 10 | expected a string literal in the IN list
            a IN 'x'                        | 5  | expected '(' after IN but found 'x'
            a IN ('x'                       | 9  | expected ',' or ')' in the IN list but found end of selector
            a IN ('x' 'y')                  | 10 | expected ',' or ')' in the IN list but found 'y'
            a BETWEEN 1                     | 11 | expected AND but found end of selector
            a BETWEEN 1 OR 2                | 12 | expected AND but found 'OR'
            a NOT BETWEEN 1 AND             | 19 | expected an operand
            a NOT 5                         | 6  | expected BETWEEN, IN or LIKE after NOT but found '5'
            a NOT = 5                       | 6  | expected BETWEEN, IN or LIKE after NOT
            a IS 5                          | 5  | expected NULL or NOT NULL but found '5'
            a IS NOT 5                      | 9  | expected NULL but found '5'
            a IS                            | 4  | expected NULL or NOT NULL but found end of selector
            """)
    void predicates(String selector, int position, String message) {
        assertError(selector, position, message);
    }

    @Test
    void positionCountsNewlinesAndTabs() {
        assertError("a = 1\n\tAND AND", 11, "expected an operand but found 'AND'");
    }

    @Test
    void messageNamesThePosition() {
        SelectorException e = assertThrows(SelectorException.class, () -> Selector.parse("a = 1 AND b = 2 AND"));
        assertEquals("expected an operand but found end of selector at position 19", e.getMessage());
        assertEquals(19, e.position());
        e = assertThrows(SelectorException.class, () -> Selector.parse("x > 1 AND AND"));
        assertEquals("expected an operand but found 'AND' at position 10", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a=1",
                "a<>1",
                "a>=1 AND b<=2",
                "(a=1)OR(b=2)",
                "a IN('x','y')",
                "a LIKE'x%'ESCAPE'!'",
                "NOT(a)",
                "a IS NULL",
                "a is not null",
                "-a*-b>+c",
                "a BETWEEN -1 AND +1",
                "\ta\n=\r\n1 ",
                "-9223372036854775808 < a",
                "1 = 1.0",
                "'a' = 'a'",
                "a = b",
                "TRUE",
                "false",
                "flag",
                "(flag)",
                "((flag) AND (NOT flag))",
                "a = 'x' OR b <> 'y' AND NOT c BETWEEN 1 AND 2",
                "JMSPriority > 4 AND JMSDeliveryMode = 'PERSISTENT'",
                "_a$1 = 1",
                "a / 0 = 1"
            })
    void validSelectorsParse(String selector) {
        Selector parsed = assertDoesNotThrow(() -> Selector.parse(selector));
        assertEquals(selector, parsed.text());
    }

    @Test
    void nestingIsBounded() {
        int deep = Parser.MAX_NESTING + 10;
        String parens = "(".repeat(deep) + "a" + ")".repeat(deep);
        SelectorException e = assertThrows(SelectorException.class, () -> Selector.parse(parens));
        assertEquals(Parser.MAX_NESTING, e.position());
        assertTrue(e.getMessage().startsWith("selector nested too deeply"), e.getMessage());

        String nots = "NOT ".repeat(deep) + "a";
        assertThrows(SelectorException.class, () -> Selector.parse(nots));

        String signs = "a = " + "-".repeat(deep) + "1";
        assertThrows(SelectorException.class, () -> Selector.parse(signs));

        String sum = "a" + " + a".repeat(Parser.MAX_DEPTH + 1) + " = 1";
        e = assertThrows(SelectorException.class, () -> Selector.parse(sum));
        assertTrue(e.getMessage().startsWith("selector nested too deeply"), e.getMessage());

        String fine = "(".repeat(Parser.MAX_NESTING) + "a" + ")".repeat(Parser.MAX_NESTING);
        assertDoesNotThrow(() -> Selector.parse(fine));
    }

    static void assertError(String selector, int position, String message) {
        SelectorException e = assertThrows(
                SelectorException.class, () -> Selector.parse(selector), () -> "expected an error for " + selector);
        assertEquals(position, e.position(), () -> "position for [" + selector + "]: " + e.getMessage());
        assertTrue(e.getMessage().contains(message), () -> "message for [" + selector + "]: " + e.getMessage());
        assertTrue(e.getMessage().endsWith(" at position " + position), e.getMessage());
    }
}
