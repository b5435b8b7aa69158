package org.partita.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The LIKE matcher on its own, with no escape character unless the escape column says so. */
class LikePatternTest {

    @ParameterizedTest(name = "''{1}'' LIKE ''{0}'' -> {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            abc         | abc            | true
            abc         | abcd           | false
            abc         | ab             | false
            ""          | ""             | true
            ""          | a              | false
            %           | ""             | true
            %%%         | ""             | true
            _           | ""             | false
            %_          | ""             | false
            %_          | x              | true
            _%_         | a              | false
            _%_         | ab             | true
            a%a         | a              | false
            a%a         | aa             | true
            a%a         | aba            | true
            a%%b        | ab             | true
            %ab_d       | abcabxd        | true
            %a_c%       | abxabc         | true
            %a_c%       | abxab          | false
            %a_c%e      | abcabce        | true
            a%b%c       | aXbYc          | true
            a%b%c       | aXcYb          | false
            a%b%c       | abc            | true
            %b%b%       | abab           | true
            %b%b%b%     | abab           | false
            a_%_c       | abbc           | true
            a_%_c       | abc            | false
            %aab        | aaab           | true
            %aab%       | aaaaaaab       | true
            x%y%z       | xyzyz          | true
            *           | *              | true
            .           | x              | false
            a.c         | abc            | false
            ^a$         | ^a$            | true
            [ab]        | a              | false
            \\d         | \\d            | true
            \\Q%\\E     | \\Qx\\E        | true
            "(a|b)"     | "(a|b)"        | true
            a+          | aa             | false
            """)
    void matches(String pattern, String value, boolean expected) {
        assertEquals(expected, LikePattern.compile(pattern, -1).matches(value), value + " LIKE " + pattern);
    }

    @ParameterizedTest(name = "''{2}'' LIKE ''{0}'' ESCAPE ''{1}'' -> {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            100\\%      | \\   | 100%       | true
            100\\%      | \\   | 1000       | false
            %\\%        | \\   | 50%        | true
            %\\%        | \\   | 50         | false
            a\\_c       | \\   | a_c        | true
            a\\_c       | \\   | abc        | false
            a\\\\c      | \\   | a\\c       | true
            a!%!_!!     | !    | a%_!       | true
            %!%%        | !    | x%y        | true
            _!__        | !    | x_y        | true
            _!__        | !    | xyz        | false
            a%%b        | %    | a%b        | true
            a%%b        | %    | axb        | false
            """)
    void escapes(String pattern, String escape, String value, boolean expected) {
        assertEquals(
                expected, LikePattern.compile(pattern, escape.codePointAt(0)).matches(value));
    }

    @Test
    void underscoreIsOneCodePoint() {
        String smile = new String(Character.toChars(0x1F600));
        assertTrue(LikePattern.compile("a_b", -1).matches("a" + smile + "b"));
        assertTrue(LikePattern.compile("%_", -1).matches(smile));
        assertTrue(LikePattern.compile("_%", -1).matches(smile));
        assertEquals(false, LikePattern.compile("__", -1).matches(smile));
        assertTrue(LikePattern.compile("%_" + smile + "_%", -1).matches("x" + smile + smile + smile + "y"));
        assertTrue(LikePattern.compile(smile + "%", smile.codePointAt(0)).matches("%"));
    }

    @Test
    void escapeErrors() {
        assertThrows(IllegalArgumentException.class, () -> LikePattern.compile("abc!", '!'));
        assertThrows(IllegalArgumentException.class, () -> LikePattern.compile("a!bc", '!'));
    }

    @Test
    void manyWildcardsStayFast() {
        String value = "a".repeat(20_000);
        LikePattern pattern = LikePattern.compile("%a%a%a%a%a%a%a%a%a%a%b", -1);
        long start = System.nanoTime();
        assertEquals(false, pattern.matches(value));
        assertEquals(true, LikePattern.compile("%a%a%a%a%a%a%a%a%a%a%", -1).matches(value));
        assertTrue(System.nanoTime() - start < 1_000_000_000L, "matching must not backtrack exponentially");
    }
}
