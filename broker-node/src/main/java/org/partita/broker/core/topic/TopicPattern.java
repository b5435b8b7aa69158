package org.partita.broker.core.topic;

import java.util.Arrays;

/**
 * A topic name or subscription pattern: levels separated by {@code /}; {@code *} matches exactly
 * one level and {@code >} (last level only) matches one or more trailing levels, so
 * {@code mfg/machine/>} matches {@code mfg/machine/m-001/state} but not {@code mfg/machine}.
 */
public final class TopicPattern {
    private final String text;
    private final String[] levels;
    private final boolean literal;

    private TopicPattern(String text) {
        this.text = text;
        this.levels = text.split("/", -1);
        for (int i = 0; i < levels.length; i++) {
            if (levels[i].equals(">") && i != levels.length - 1) {
                throw new IllegalArgumentException("'>' may only be the last level of a topic pattern: " + text);
            }
        }
        this.literal = Arrays.stream(levels).noneMatch(l -> l.equals("*") || l.equals(">"));
    }

    public static TopicPattern of(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("topic name must not be empty");
        }
        checkNoOptions(text);
        return new TopicPattern(text);
    }

    /** A pattern read back from the store: accepted as it was when stored, by older versions too. */
    static TopicPattern stored(String text) {
        return new TopicPattern(text);
    }

    /**
     * Topics take no options: a name like {@code news?partitions=4} is refused rather than read as
     * a topic whose name ends in "?partitions=4". Queue options belong on a queue, which a topic
     * can feed ({@code subscriptions=news}).
     */
    public static void checkNoOptions(String topic) {
        if (topic.indexOf('?') >= 0) {
            throw new IllegalArgumentException("'" + topic + "': topic names take no options ('?'); put options on a"
                    + " queue that subscribes to the topic, such as <queue>?subscriptions="
                    + topic.substring(0, topic.indexOf('?')));
        }
    }

    public String text() {
        return text;
    }

    /** Whether a message published to {@code topic} (a literal name) belongs to this pattern. */
    public boolean matches(String topic) {
        if (literal) {
            return text.equals(topic);
        }
        String[] t = topic.split("/", -1);
        for (int i = 0; i < levels.length; i++) {
            String l = levels[i];
            if (l.equals(">")) {
                return t.length > i;
            }
            if (i >= t.length || !(l.equals("*") || l.equals(t[i]))) {
                return false;
            }
        }
        return t.length == levels.length;
    }

    @Override
    public String toString() {
        return text;
    }
}
