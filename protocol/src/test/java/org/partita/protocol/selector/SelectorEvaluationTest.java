package org.partita.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Evaluation of valid selectors against a fixed set of properties. Expected results are T (TRUE),
 * F (FALSE) or U (UNKNOWN); each case also checks that {@code NOT (selector)} gives the negation
 * (UNKNOWN staying UNKNOWN) and that only TRUE selects the message.
 */
class SelectorEvaluationTest {

    static final Map<String, Object> PROPS = new HashMap<>();

    static {
        PROPS.put("i", 10);
        PROPS.put("l", 10L);
        PROPS.put("b", (byte) 10);
        PROPS.put("sh", (short) 10);
        PROPS.put("f", 2.5f);
        PROPS.put("d", 2.5d);
        PROPS.put("fl1", 1.1f);
        PROPS.put("neg", -5);
        PROPS.put("zero", 0);
        PROPS.put("big", Long.MAX_VALUE);
        PROPS.put("nan", Double.NaN);
        PROPS.put("s", "hello");
        PROPS.put("str10", "10");
        PROPS.put("empty", "");
        PROPS.put("quote", "it's");
        PROPS.put("pct", "100%");
        PROPS.put("under", "a_b");
        PROPS.put("regex", "a.b*c");
        PROPS.put("special", "^(a|b)$+?{1}[x]\\");
        PROPS.put("bs", "a\\b");
        PROPS.put("emoji", "a\uD83D\uDE00b");
        PROPS.put("t", Boolean.TRUE);
        PROPS.put("fl", Boolean.FALSE);
        PROPS.put("nul", null);
        PROPS.put("ch", 'x');
        PROPS.put("bytes", new byte[] {1});
        PROPS.put("$dollar", 1);
        PROPS.put("_under", 2);
        PROPS.put("ünïcode", 3);
        PROPS.put("NOTE", "note");
        PROPS.put("S", "upper");
    }

    static final SelectorContext CTX = PROPS::get;

    static String eval(String text) throws SelectorException {
        Boolean result = Selector.parse(text).evaluate(CTX);
        return result == null ? "U" : result ? "T" : "F";
    }

    private static void check(String selector, String expected) throws SelectorException {
        Selector parsed = Selector.parse(selector);
        assertEquals(expected, eval(selector), selector);
        assertEquals(expected.equals("T"), parsed.matches(CTX), selector);
        String negated = switch (expected) {
            case "T" -> "F";
            case "F" -> "T";
            default -> "U";
        };
        assertEquals(negated, eval("NOT (" + selector + ")"), "NOT (" + selector + ")");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            i = 10                       | T
            i = 10.0                     | T
            i <> 10                      | F
            i <> 11                      | T
            i > 9                        | T
            i > 10                       | F
            i >= 10                      | T
            i < 10                       | F
            i < 11                       | T
            i <= 10                      | T
            i <= 9                       | F
            i > 10.5                     | F
            i < 10.5                     | T
            i>=10                        | T
            """)
    void numericComparison(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            l = i                        | T
            b = sh                       | T
            b = 10                       | T
            sh = 10                      | T
            b = l                        | T
            f = 2.5                      | T
            f = d                        | T
            d > f                        | F
            f * 4 = i                    | T
            d * 4 = 10                   | T
            b + sh + i + l = 40          | T
            f + 1 = 3.5                  | T
            big > i                      | T
            big = 9223372036854775807    | T
            -9223372036854775808 < big   | T
            neg = -5                     | T
            -neg = 5                     | T
            - -5 = 5                     | T
            zero = -0.0                  | T
            fl1 = 1.1                    | F
            fl1 < 1.1                    | F
            fl1 > 1.1                    | T
            nan = nan                    | F
            nan <> nan                   | T
            nan > 0                      | F
            """)
    void numericPromotion(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            i + 5 = 15                   | T
            i - 15 = -5                  | T
            i * 3 = 30                   | T
            i / 4 = 2                    | T
            i / 4.0 = 2.5                | T
            d / 2 = 1.25                 | T
            7 / 2 = 3                    | T
            -7 / 2 = -3                  | T
            1 + 2 * 3 = 7                | T
            (1 + 2) * 3 = 9              | T
            10 - 2 - 3 = 5               | T
            100 / 10 / 5 = 2             | T
            -i = -10                     | T
            +i = 10                      | T
            - i * 2 = -20                | T
            -(i - 20) = 10               | T
            7E3 = 7000                   | T
            7e3 = 7000.0                 | T
            -57.9E2 = -5790              | T
            1.5e-3 = 0.0015              | T
            2.5E+1 = 25                  | T
            -57.9 < 0                    | T
            7. = 7                       | T
            .5 = 0.5                     | T
            +62 = 62                     | T
            007 = 7                      | T
            big + 1 = -9223372036854775808 | T
            i / 0 = 1                    | U
            i / 0 IS NULL                | T
            d / 0.0 IS NULL              | T
            d / 0 IS NULL                | T
            n + 1 = 1                    | U
            n * 0 = 0                    | U
            -n = 0                       | U
            i + n IS NULL                | T
            str10 + 1 = 11               | U
            t + 1 = 2                    | U
            -s = 1                       | U
            +s IS NULL                   | T
            ch + 1 IS NULL               | T
            """)
    void arithmetic(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            s = 'hello'                  | T
            s = 'Hello'                  | F
            s <> 'world'                 | T
            s <> 'hello'                 | F
            s = 'hello '                 | F
            quote = 'it''s'              | T
            empty = ''                   | T
            'abc' = 'abc'                | T
            'abc' <> 'abd'               | T
            'it''s' = quote              | T
            S = 'upper'                  | T
            s = S                        | F
            """)
    void strings(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    /** 3.8.1.1: numeric literals use Java literal syntax. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            i = 10L                      | T
            i = 10l                      | T
            i = 012                      | T
            i = 0xA                      | T
            i = 0Xa                      | T
            i = 0b1010                   | T
            i = 1_0                      | T
            i = 0x0000_000AL             | T
            29 = 035                     | T
            29 = 0x1d                    | T
            -9223372036854775808L < neg  | T
            -9223372036854775808 = -9223372036854775807 - 1 | T
            0xFFFFFFFFFFFFFFFFL = -1     | T
            -0x8000000000000000L < 0     | T
            big = 0x7fffffffffffffffL    | T
            d = 2.5d                     | T
            d = 2.5D                     | T
            d = 25e-1                    | T
            d = 0.25E1                   | T
            d = 2.5f                     | T
            d = 0x1.4p1                  | T
            d = 0x1.4p1d                 | T
            d = 5e-1 * 5                 | T
            fl1 = 1.1f                   | T
            fl1 = 1.1                    | F
            fl1 = 1.1d                   | F
            i = 10f                      | T
            i = 10d                      | T
            i = 1e1                      | T
            i = 10.                      | T
            zero = 0e0                   | T
            zero = 0                     | T
            zero = 00                    | T
            i = 09.5e0 + 0.5             | T
            """)
    void javaNumericLiterals(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            t                            | T
            fl                           | F
            (t)                          | T
            t = TRUE                     | T
            t = true                     | T
            fl = FALSE                   | T
            t <> fl                      | T
            t = fl                       | F
            TRUE                         | T
            FALSE                        | F
            TRUE = TRUE                  | T
            (i > 5) = TRUE               | T
            (i > 5) = (s = 'hello')      | T
            (i > 5) <> t                 | F
            (n > 5) = TRUE               | U
            s                            | U
            i                            | U
            n                            | U
            ch                           | U
            """)
    void booleans(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            s = 10                       | F
            s <> 10                      | F
            str10 = 10                   | F
            str10 > 9                    | F
            i = '10'                     | F
            i <> '10'                    | F
            t = 1                        | F
            t <> 1                       | F
            t = 'TRUE'                   | F
            'a' = 1                      | F
            s > i                        | F
            t < i                        | F
            s >= str10                   | F
            ch = 'x'                     | F
            ch <> 'x'                    | F
            bytes = bytes                | F
            i = (s = 'hello')            | F
            """)
    void unlikeTypesCompareFalse(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            n = 1                        | U
            n <> 1                       | U
            n > 1                        | U
            1 < n                        | U
            n = n                        | U
            nul = 'x'                    | U
            n = 'x'                      | U
            n = TRUE                     | U
            n IS NULL                    | T
            n IS NOT NULL                | F
            nul IS NULL                  | T
            i IS NULL                    | F
            i IS NOT NULL                | T
            s IS NOT NULL                | T
            t is not null                | T
            ch IS NULL                   | F
            (i + 1) IS NOT NULL          | T
            n > 1 OR TRUE                | T
            n > 1 OR FALSE               | U
            n > 1 AND FALSE              | F
            n > 1 AND TRUE               | U
            s = 10 OR n = 1              | U
            """)
    void nulls(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            i BETWEEN 5 AND 15                 | T
            i BETWEEN 10 AND 10                | T
            i BETWEEN 11 AND 20                | F
            i BETWEEN 1 AND 9                  | F
            i BETWEEN 15 AND 5                 | F
            i NOT BETWEEN 11 AND 20            | T
            i NOT BETWEEN 5 AND 15             | F
            i NOT BETWEEN 10 AND 10            | F
            d BETWEEN 2 AND 3                  | T
            i BETWEEN 9.5 AND 10.5             | T
            b BETWEEN sh AND l                 | T
            i + 1 BETWEEN i AND i * 2          | T
            -i BETWEEN -11 AND -9              | T
            n BETWEEN 1 AND 2                  | U
            n NOT BETWEEN 1 AND 2              | U
            i BETWEEN n AND 20                 | U
            i BETWEEN n AND 5                  | F
            i NOT BETWEEN n AND 5              | T
            i NOT BETWEEN n AND 20             | U
            s BETWEEN 1 AND 2                  | F
            s NOT BETWEEN 1 AND 2              | F
            i BETWEEN 5 AND 15 AND s = 'hello' | T
            i between 5 and 15                 | T
            """)
    void between(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            s IN ('hello', 'world')          | T
            s IN ('world')                   | F
            s IN ('a', 'b', 'c', 'hello')    | T
            s IN ('HELLO')                   | F
            s NOT IN ('world')               | T
            s NOT IN ('hello', 'x')          | F
            s in ('hello')                   | T
            quote IN ('it''s')               | T
            empty IN ('')                    | T
            str10 IN ('10')                  | T
            n IN ('a')                       | U
            n NOT IN ('a')                   | U
            nul IN ('a')                     | U
            i IN ('10')                      | F
            i NOT IN ('10')                  | F
            t IN ('TRUE')                    | F
            (s) IN ('hello')                 | T
            s IN ('hello') AND i = 10        | T
            """)
    void in(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            s LIKE 'hello'                        | T
            s LIKE 'Hello'                        | F
            s LIKE 'hel%'                         | T
            s LIKE '%llo'                         | T
            s LIKE '%ll%'                         | T
            s LIKE '%x%'                          | F
            s LIKE 'h_llo'                        | T
            s LIKE 'h_lo'                         | F
            s LIKE '_____'                        | T
            s LIKE '______'                       | F
            s LIKE '%'                            | T
            s LIKE '%%'                           | T
            s LIKE 'he%lo'                        | T
            s LIKE 'hel%llo'                      | F
            s LIKE '%l%l%o'                       | T
            s LIKE '%l%l%l%'                      | F
            s LIKE 'h%o%'                         | T
            s LIKE '_%_'                          | T
            s NOT LIKE 'x%'                       | T
            s NOT LIKE 'h%'                       | F
            s not like 'h%'                       | F
            empty LIKE '%'                        | T
            empty LIKE '_'                        | F
            empty LIKE ''                         | T
            pct LIKE '100\\%' ESCAPE '\\'         | T
            pct LIKE '100!%' ESCAPE '!'           | T
            pct LIKE '10!%' ESCAPE '!'            | F
            s LIKE 'hel!%' ESCAPE '!'             | F
            under LIKE 'a\\_b' ESCAPE '\\'        | T
            s LIKE 'h\\_llo' ESCAPE '\\'          | F
            s LIKE 'h%' ESCAPE '\\'               | T
            bs LIKE 'a\\\\b' ESCAPE '\\'          | T
            bs LIKE 'a\\b'                        | T
            pct LIKE '100%%' ESCAPE '%'           | T
            regex LIKE 'a.b*c'                    | T
            regex LIKE 'a.b%'                     | T
            regex LIKE '%*%'                      | T
            s LIKE 'h.llo'                        | F
            s LIKE 'h[e]llo'                      | F
            s LIKE 'hel+o'                        | F
            s LIKE '.*'                           | F
            "special LIKE '^(a|b)$+?{1}[x]\\'"    | T
            "special LIKE '^(a|b)$%'"             | T
            quote LIKE 'it''%'                    | T
            emoji LIKE 'a_b'                      | T
            emoji LIKE 'a__b'                     | F
            emoji LIKE '%\uD83D\uDE00%'           | T
            n LIKE 'a%'                           | U
            n NOT LIKE 'a%'                       | U
            i LIKE '1%'                           | F
            i NOT LIKE '1%'                       | F
            str10 LIKE '1_'                       | T
            """)
    void like(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            FALSE AND FALSE OR TRUE          | T
            TRUE OR FALSE AND FALSE          | T
            FALSE AND (FALSE OR TRUE)        | F
            NOT TRUE OR TRUE                 | T
            NOT (TRUE OR TRUE)               | F
            NOT FALSE AND FALSE              | F
            NOT NOT TRUE                     | T
            NOT i = 10                       | F
            NOT i = 10 OR s = 'hello'        | T
            not fl and not fl                | T
            t AND fl OR t                    | T
            t AND (fl OR t)                  | T
            fl OR fl OR fl OR t              | T
            t AND t AND t AND fl             | F
            (((i = 10)))                     | T
            NOTE = 'note'                    | T
            INx IS NULL                      | T
            ORDER IS NULL                    | T
            $dollar = 1                      | T
            _under = 2                       | T
            ünïcode = 3                      | T
            """)
    void precedenceAndIdentifiers(String selector, String expected) throws SelectorException {
        check(selector, expected);
    }

    /** SQL truth tables: a and b take the values T, F and U (UNKNOWN, an absent property). */
    @ParameterizedTest(name = "{0} AND {1} = {2}, {0} OR {1} = {3}")
    @CsvSource({
        "T, T, T, T", "T, F, F, T", "T, U, U, T",
        "F, T, F, T", "F, F, F, F", "F, U, F, U",
        "U, T, U, T", "U, F, F, U", "U, U, U, U"
    })
    void threeValuedLogic(String a, String b, String and, String or) {
        Map<String, Object> props = new HashMap<>();
        props.put("a", truth(a));
        props.put("b", truth(b));
        assertEquals(and, eval3("a AND b", props), a + " AND " + b);
        assertEquals(or, eval3("a OR b", props), a + " OR " + b);
        String not = a.equals("T") ? "F" : a.equals("F") ? "T" : "U";
        assertEquals(not, eval3("NOT a", props), "NOT " + a);
        // the same tables when the operands are comparisons, UNKNOWN coming from a NULL operand
        assertEquals(and, eval3(cmp("a") + " AND " + cmp("b"), props));
        assertEquals(or, eval3(cmp("a") + " OR " + cmp("b"), props));
    }

    private static String cmp(String name) {
        return "(" + name + " = TRUE)";
    }

    private static Boolean truth(String value) {
        return value.equals("U") ? null : value.equals("T");
    }

    private static String eval3(String selector, Map<String, Object> props) {
        try {
            Boolean result = Selector.parse(selector).evaluate(props::get);
            return result == null ? "U" : result ? "T" : "F";
        } catch (SelectorException e) {
            throw new AssertionError(e);
        }
    }
}
