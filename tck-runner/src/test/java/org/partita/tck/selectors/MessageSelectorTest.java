package org.partita.tck.selectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.DeliveryMode;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/**
 * Jakarta Messaging 3.1, section 3.8: message selectors. Each test sends messages numbered by the
 * property {@code idx} and checks which of them a consumer with the selector receives.
 */
class MessageSelectorTest extends TckTest {

    @FunctionalInterface
    interface Setup {
        void apply(Message m) throws JMSException;
    }

    private static final Setup NOTHING = m -> {};

    /** Asserts that a consumer with {@code selector} receives exactly the messages {@code expected}. */
    private void assertSelected(String selector, List<Integer> expected, Setup... setups) throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < setups.length; i++) {
            Message m = s.createTextMessage("m" + i);
            m.setIntProperty("idx", i);
            setups[i].apply(m);
            p.send(m);
        }
        MessageConsumer consumer = s.createConsumer(q, selector);
        List<Integer> got = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
            Message m = consumer.receive(RECEIVE_TIMEOUT);
            if (m == null) {
                break;
            }
            got.add(m.getIntProperty("idx"));
        }
        Message extra = consumer.receive(ABSENCE_TIMEOUT);
        if (extra != null) {
            got.add(extra.getIntProperty("idx"));
        }
        assertEquals(expected, got, "selector: " + selector);
    }

    private static Setup str(String name, String value) {
        return m -> m.setStringProperty(name, value);
    }

    private static Setup integer(String name, int value) {
        return m -> m.setIntProperty(name, value);
    }

    private static Setup dbl(String name, double value) {
        return m -> m.setDoubleProperty(name, value);
    }

    private static Setup bool(String name, boolean value) {
        return m -> m.setBooleanProperty(name, value);
    }

    @Test
    @DisplayName("3.8.1.1: string equality selects matching messages only")
    void stringEquality() throws JMSException {
        assertSelected("color = 'blue'", List.of(1), str("color", "red"), str("color", "blue"), str("color", "Blue"));
    }

    @Test
    @DisplayName("3.8.1.1: <> on strings selects the others (messages without the property are unknown)")
    void stringInequality() throws JMSException {
        assertSelected("color <> 'blue'", List.of(0), str("color", "red"), str("color", "blue"), NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: numeric comparison operators =, >, >=, <, <=, <>")
    void numericComparisons() throws JMSException {
        Setup[] weights = {integer("w", 1), integer("w", 2), integer("w", 3)};
        assertSelected("w = 2", List.of(1), weights);
        assertSelected("w > 2", List.of(2), weights);
        assertSelected("w >= 2", List.of(1, 2), weights);
        assertSelected("w < 2", List.of(0), weights);
        assertSelected("w <= 2", List.of(0, 1), weights);
        assertSelected("w <> 2", List.of(0, 2), weights);
    }

    @Test
    @DisplayName("3.8.1.1: the spec's example selects type car, color blue, weight over 2500")
    void specExample() throws JMSException {
        Setup blueHeavyCar = m -> {
            m.setJMSType("car");
            m.setStringProperty("color", "blue");
            m.setIntProperty("weight", 3000);
        };
        Setup blueLightCar = m -> {
            m.setJMSType("car");
            m.setStringProperty("color", "blue");
            m.setIntProperty("weight", 2000);
        };
        Setup blueHeavyTruck = m -> {
            m.setJMSType("truck");
            m.setStringProperty("color", "blue");
            m.setIntProperty("weight", 3000);
        };
        assertSelected(
                "JMSType = 'car' AND color = 'blue' AND weight > 2500",
                List.of(0),
                blueHeavyCar,
                blueLightCar,
                blueHeavyTruck);
    }

    @Test
    @DisplayName("3.8.1.1: arithmetic + - * / with the usual precedence")
    void arithmetic() throws JMSException {
        assertSelected(
                "a + b * 2 = 7",
                List.of(0),
                m -> {
                    m.setIntProperty("a", 1);
                    m.setIntProperty("b", 3);
                },
                m -> {
                    m.setIntProperty("a", 3);
                    m.setIntProperty("b", 1);
                });
        assertSelected(
                "(a + b) * 2 = 8",
                List.of(0, 1),
                m -> {
                    m.setIntProperty("a", 1);
                    m.setIntProperty("b", 3);
                },
                m -> {
                    m.setIntProperty("a", 3);
                    m.setIntProperty("b", 1);
                });
    }

    @Test
    @DisplayName("3.8.1.1: unary minus and subtraction")
    void unaryMinus() throws JMSException {
        assertSelected("-a = 5 - 10", List.of(1), integer("a", -5), integer("a", 5));
    }

    @Test
    @DisplayName("3.8.1.1: exact and approximate numeric values compare by Java numeric promotion")
    void exactVersusApproximate() throws JMSException {
        assertSelected("n = 2.0", List.of(0), integer("n", 2), integer("n", 3));
        assertSelected("d > 1", List.of(0), dbl("d", 1.5), dbl("d", 0.5));
    }

    @Test
    @DisplayName("3.8.1.1: approximate literals in scientific notation (7E3, -57.9E2)")
    void scientificLiterals() throws JMSException {
        assertSelected("d = 7E3", List.of(0), dbl("d", 7000), dbl("d", 700));
        assertSelected("d = -57.9E2", List.of(1), dbl("d", 5790), dbl("d", -5790));
    }

    @Test
    @DisplayName("3.8.1.1: exact literals cover the range of Java long")
    void longLiterals() throws JMSException {
        assertSelected(
                "big = 9223372036854775807",
                List.of(0),
                m -> m.setLongProperty("big", Long.MAX_VALUE),
                m -> m.setLongProperty("big", 1));
    }

    @Test
    @DisplayName("3.8.1.1: BETWEEN is inclusive at both ends")
    void between() throws JMSException {
        assertSelected(
                "age BETWEEN 15 AND 19",
                List.of(1, 2, 3),
                integer("age", 14),
                integer("age", 15),
                integer("age", 17),
                integer("age", 19),
                integer("age", 20));
    }

    @Test
    @DisplayName("3.8.1.1: NOT BETWEEN selects values outside the range")
    void notBetween() throws JMSException {
        assertSelected(
                "age NOT BETWEEN 15 AND 19",
                List.of(0, 4),
                integer("age", 14),
                integer("age", 15),
                integer("age", 17),
                integer("age", 19),
                integer("age", 20));
    }

    @Test
    @DisplayName("3.8.1.1: IN selects strings in the list")
    void in() throws JMSException {
        assertSelected(
                "Country IN ('UK', 'US', 'France')",
                List.of(0, 2),
                str("Country", "UK"),
                str("Country", "Peru"),
                str("Country", "France"));
    }

    @Test
    @DisplayName("3.8.1.1: NOT IN selects strings not in the list; a NULL identifier is unknown")
    void notIn() throws JMSException {
        assertSelected(
                "Country NOT IN ('UK', 'US', 'France')",
                List.of(1),
                str("Country", "UK"),
                str("Country", "Peru"),
                NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: LIKE with % matches any sequence ('12%3')")
    void likePercent() throws JMSException {
        assertSelected(
                "phone LIKE '12%3'", List.of(0, 1), str("phone", "123"), str("phone", "12993"), str("phone", "1234"));
    }

    @Test
    @DisplayName("3.8.1.1: LIKE with _ matches exactly one character ('l_se')")
    void likeUnderscore() throws JMSException {
        assertSelected("word LIKE 'l_se'", List.of(0), str("word", "lose"), str("word", "loose"));
    }

    @Test
    @DisplayName("3.8.1.1: LIKE ... ESCAPE makes _ and % literal")
    void likeEscape() throws JMSException {
        assertSelected(
                "underscored LIKE '\\_%' ESCAPE '\\'",
                List.of(0), str("underscored", "_foo"), str("underscored", "bar"));
    }

    @Test
    @DisplayName("3.8.1.1: NOT LIKE selects non-matching strings")
    void notLike() throws JMSException {
        assertSelected(
                "phone NOT LIKE '12%3'", List.of(2), str("phone", "123"), str("phone", "12993"), str("phone", "1234"));
    }

    @Test
    @DisplayName("3.8.1.1: LIKE on a NULL identifier is unknown, also under NOT LIKE")
    void likeNull() throws JMSException {
        assertSelected("phone NOT LIKE '12%'", List.of(1), NOTHING, str("phone", "99"));
    }

    @Test
    @DisplayName("3.8.1.1: IS NULL selects messages without the property")
    void isNull() throws JMSException {
        assertSelected("prop_name IS NULL", List.of(1), str("prop_name", "x"), NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: IS NOT NULL selects messages with the property")
    void isNotNull() throws JMSException {
        assertSelected("prop_name IS NOT NULL", List.of(0), str("prop_name", "x"), NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: NOT binds tighter than AND, which binds tighter than OR")
    void logicalPrecedence() throws JMSException {
        Setup[] s = {
            m -> {
                m.setBooleanProperty("a", true);
                m.setBooleanProperty("b", false);
                m.setBooleanProperty("c", false);
            },
            m -> {
                m.setBooleanProperty("a", false);
                m.setBooleanProperty("b", true);
                m.setBooleanProperty("c", true);
            },
            m -> {
                m.setBooleanProperty("a", false);
                m.setBooleanProperty("b", true);
                m.setBooleanProperty("c", false);
            },
        };
        // a OR (b AND c)
        assertSelected("a OR b AND c", List.of(0, 1), s);
        // (NOT a) AND b
        assertSelected("NOT a AND b", List.of(1, 2), s);
    }

    @Test
    @DisplayName("3.8.1.1: parentheses change the order of evaluation")
    void parentheses() throws JMSException {
        Setup[] s = {
            m -> {
                m.setBooleanProperty("a", true);
                m.setBooleanProperty("b", false);
                m.setBooleanProperty("c", false);
            },
            m -> {
                m.setBooleanProperty("a", false);
                m.setBooleanProperty("b", true);
                m.setBooleanProperty("c", true);
            },
        };
        assertSelected("(a OR b) AND c", List.of(1), s);
    }

    @Test
    @DisplayName("3.8.1.2: a comparison with a missing property is unknown and does not select")
    void comparisonWithNullIsUnknown() throws JMSException {
        assertSelected("missing > 0", List.of(), NOTHING, integer("other", 1));
    }

    @Test
    @DisplayName("3.8.1.2: NOT of unknown is unknown and does not select")
    void notUnknown() throws JMSException {
        assertSelected("NOT (missing > 0)", List.of(1), NOTHING, integer("missing", -1));
    }

    @Test
    @DisplayName("3.8.1.2: unknown OR true is true; unknown AND false is false; unknown AND true is unknown")
    void threeValuedLogic() throws JMSException {
        assertSelected("missing = 1 OR idx = 0", List.of(0), NOTHING, NOTHING);
        assertSelected("missing = 1 AND idx = 0", List.of(), NOTHING, NOTHING);
        assertSelected("NOT (missing = 1 AND idx = 1)", List.of(0), NOTHING, NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: comparing values of different types (string with number) is false")
    void differentTypesCompareFalse() throws JMSException {
        assertSelected("NumberOfOrders > 1", List.of(1), str("NumberOfOrders", "2"), integer("NumberOfOrders", 2));
    }

    @Test
    @DisplayName("3.8.1.1: a boolean property can stand alone as a condition and compare with TRUE/FALSE")
    void booleanIdentifier() throws JMSException {
        assertSelected("flag", List.of(0), bool("flag", true), bool("flag", false), NOTHING);
        assertSelected("flag = FALSE", List.of(1), bool("flag", true), bool("flag", false), NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: the literals TRUE and FALSE")
    void booleanLiterals() throws JMSException {
        assertSelected("TRUE", List.of(0, 1), NOTHING, NOTHING);
        assertSelected("FALSE", List.of(), NOTHING, NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: a string literal may contain a doubled single quote")
    void quoteInLiteral() throws JMSException {
        assertSelected("name = 'literal''s'", List.of(0), str("name", "literal's"), str("name", "literals"));
    }

    @Test
    @DisplayName("3.8.1.1: keywords are case insensitive")
    void keywordsCaseInsensitive() throws JMSException {
        assertSelected(
                "age between 1 and 5 and name like 'a%' and other is null or false",
                List.of(0),
                m -> {
                    m.setIntProperty("age", 3);
                    m.setStringProperty("name", "abc");
                },
                m -> {
                    m.setIntProperty("age", 9);
                    m.setStringProperty("name", "abc");
                });
    }

    @Test
    @DisplayName("3.8.1.1: identifiers are case sensitive")
    void identifiersCaseSensitive() throws JMSException {
        assertSelected("Color = 'red'", List.of(1), str("color", "red"), str("Color", "red"));
    }

    @Test
    @DisplayName("3.8.1.1: identifiers may contain _ and $ and digits")
    void identifierCharacters() throws JMSException {
        assertSelected(
                "$price_2 = 10 AND _x = 'y'",
                List.of(0),
                m -> {
                    m.setIntProperty("$price_2", 10);
                    m.setStringProperty("_x", "y");
                },
                NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: selectors can test JMSType and JMSCorrelationID")
    void headerIdentifiers() throws JMSException {
        assertSelected(
                "JMSType = 'a' OR JMSCorrelationID = 'c-2'",
                List.of(0, 2),
                m -> m.setJMSType("a"),
                m -> m.setJMSType("b"),
                m -> m.setJMSCorrelationID("c-2"));
    }

    @Test
    @DisplayName("3.8.1.1: JMSCorrelationID that is not set is NULL in a selector")
    void nullHeader() throws JMSException {
        assertSelected("JMSCorrelationID IS NULL", List.of(1), m -> m.setJMSCorrelationID("x"), NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: JMSMessageID and JMSTimestamp can be referenced")
    void messageIdAndTimestamp() throws JMSException {
        assertSelected("JMSMessageID LIKE 'ID:%' AND JMSTimestamp > 0", List.of(0, 1), NOTHING, NOTHING);
    }

    @Test
    @DisplayName("3.8.1.3: JMSDeliveryMode compares with 'PERSISTENT' and 'NON_PERSISTENT'")
    void deliveryModeSelector() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.send(s.createTextMessage("persistent"), DeliveryMode.PERSISTENT, 4, 0);
        p.send(s.createTextMessage("non-persistent"), DeliveryMode.NON_PERSISTENT, 4, 0);
        assertReceivesText(s.createConsumer(q, "JMSDeliveryMode = 'NON_PERSISTENT'"), "non-persistent");
        MessageConsumer persistent = s.createConsumer(q, "JMSDeliveryMode = 'PERSISTENT'");
        assertReceivesText(persistent, "persistent");
        assertNoMessage(persistent);
    }

    @Test
    @DisplayName("3.8.1.1: JMSPriority can be selected on")
    void prioritySelector() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        for (int prio : new int[] {1, 5, 9}) {
            p.send(s.createTextMessage("p" + prio), DeliveryMode.NON_PERSISTENT, prio, 0);
        }
        MessageConsumer consumer = s.createConsumer(q, "JMSPriority BETWEEN 4 AND 6");
        assertReceivesText(consumer, "p5");
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("3.8.1.1: JMSX properties set by the client (JMSXGroupID) can be selected on")
    void jmsxSelector() throws JMSException {
        assertSelected("JMSXGroupID = 'g1'", List.of(1), str("JMSXGroupID", "g2"), str("JMSXGroupID", "g1"));
    }

    @Test
    @DisplayName("3.8.1.1: byte, short, long and float properties take part in numeric comparisons")
    void otherNumericTypes() throws JMSException {
        assertSelected(
                "b = 1 AND s = 2 AND l = 3 AND f < 4.5",
                List.of(0),
                m -> {
                    m.setByteProperty("b", (byte) 1);
                    m.setShortProperty("s", (short) 2);
                    m.setLongProperty("l", 3L);
                    m.setFloatProperty("f", 4.25f);
                },
                NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: an empty selector means no selector")
    void emptySelector() throws JMSException {
        assertSelected("", List.of(0, 1), NOTHING, NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: a null selector means no selector")
    void nullSelector() throws JMSException {
        assertSelected(null, List.of(0, 1), NOTHING, NOTHING);
    }

    @Test
    @DisplayName("3.8.1.1: whitespace (tabs, newlines) separates tokens like spaces")
    void whitespace() throws JMSException {
        assertSelected(
                "a\t=\n1\r\nAND\fb = 2",
                List.of(0),
                m -> {
                    m.setIntProperty("a", 1);
                    m.setIntProperty("b", 2);
                },
                integer("a", 1));
    }

    @Test
    @DisplayName("3.8.1.1: a syntactically wrong selector is refused with InvalidSelectorException")
    void invalidSyntax() throws JMSException {
        Session s = connection().createSession();
        Queue q = queue();
        for (String bad : List.of(
                "a = ",
                "a == 1",
                "(a = 1",
                "a LIKE 5",
                "a IN (1, 2)",
                "NOT",
                "'x' 'y'",
                "a = 1 AND",
                "AND = 1",
                "a BETWEEN 1",
                "a IS 5")) {
            assertThrows(InvalidSelectorException.class, () -> s.createConsumer(q, bad), bad);
        }
    }

    @Test
    @DisplayName("3.8.1.1: exact numeric literals use Java integer literal syntax: L suffix, octal, hexadecimal")
    void javaExactLiterals() throws JMSException {
        Setup[] values = {m -> m.setLongProperty("n", Long.MIN_VALUE), integer("n", 29), integer("n", 30)};
        assertSelected("n = -9223372036854775808L", List.of(0), values);
        assertSelected("n = 035", List.of(1), values);
        assertSelected("n = 0x1d", List.of(1), values);
        assertSelected("n = 0X1E OR n = 29l", List.of(1, 2), values);
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason =
                    "3.8.1.1: Artemis's selector grammar has no f/F/d/D suffixes on "
                            + "approximate literals, which Java floating-point literal syntax has (AMQ229020 Invalid filter: x = 2.5d)")
    @DisplayName("3.8.1.1: approximate numeric literals use Java floating-point literal syntax: f and d suffixes")
    void javaApproximateLiteralsWithSuffixes() throws JMSException {
        Setup[] values = {dbl("x", 2.5), dbl("x", 250), dbl("x", 0.5)};
        assertSelected("x = 2.5d OR x = .5f", List.of(0, 2), values);
        assertSelected("x > 1e+2D", List.of(1), values);
        assertSelected("x < 5.F AND x <> 25e-1f", List.of(2), values);
    }

    @Test
    @DisplayName("3.8.1.1: a selector comparing a boolean literal with a numeric literal is refused with "
            + "InvalidSelectorException when the consumer or browser is created")
    void booleanLiteralComparedWithNumberIsInvalid() throws JMSException {
        assertInvalid("TRUE = 0", "FALSE <> 1");
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "3.8.1.1: Artemis refuses TRUE = 0 but accepts a number compared "
                    + "with a boolean literal (1.5 = FALSE), a boolean compared with an arithmetic expression (TRUE = a + 1) "
                    + "and a comparison compared with a number ((a > 1) = 1)")
    @DisplayName("3.8.1.1: a selector comparing a boolean with a numeric expression (either side, arithmetic "
            + "included) is refused with InvalidSelectorException when the consumer or browser is created")
    void booleanComparedWithNumericExpressionIsInvalid() throws JMSException {
        assertInvalid("1.5 = FALSE", "TRUE = a + 1", "(a > 1) = 1", "FALSE <> 2 * b");
    }

    private void assertInvalid(String... selectors) throws JMSException {
        Session s = connection().createSession();
        Queue q = queue();
        for (String bad : selectors) {
            assertThrows(InvalidSelectorException.class, () -> s.createConsumer(q, bad), bad);
            assertThrows(InvalidSelectorException.class, () -> s.createBrowser(q, bad), bad);
        }
    }

    @Test
    @DisplayName("4.1.2: messages a selector does not select stay on the queue for other consumers")
    void unselectedMessagesRemainOnQueue() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        for (String color : new String[] {"red", "blue", "red"}) {
            Message m = s.createTextMessage(color);
            m.setStringProperty("color", color);
            p.send(m);
        }
        MessageConsumer blue = s.createConsumer(q, "color = 'blue'");
        assertReceivesText(blue, "blue");
        assertNoMessage(blue);
        blue.close();
        MessageConsumer all = s.createConsumer(q);
        assertEquals(List.of("red", "red"), receiveTexts(all, 2));
    }

    @Test
    @DisplayName("4.2.2: a topic subscription with a selector only gets matching messages")
    void topicSelector() throws JMSException {
        var t = topic();
        Session s = session();
        MessageConsumer sub = s.createConsumer(t, "level > 2");
        MessageProducer p = s.createProducer(t);
        for (int level = 1; level <= 4; level++) {
            Message m = s.createTextMessage("level" + level);
            m.setIntProperty("level", level);
            p.send(m);
        }
        assertEquals(List.of("level3", "level4"), receiveTexts(sub, 2));
        assertNoMessage(sub);
    }
}
