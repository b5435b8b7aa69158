package org.partita.broker.security;

import java.util.Locale;

/** What a permission of a roles file allows on the destinations its patterns name. */
public enum Operation {
    SEND("send", "send to"),
    CONSUME("consume", "consume from"),
    BROWSE("browse", "browse"),
    /** Create or delete a durable subscription on a topic. */
    DURABLE("durable", "create or delete a durable subscription on"),
    /** Bring a queue into being: on first use by a producer, consumer or browser, or declared. */
    CREATE_QUEUE("createQueue", "create"),
    /** Admin commands: on a queue's name for queue commands, on {@code >} for node-wide ones. */
    MANAGE("manage", "manage"),
    /** Take a client id other than the user's own name. */
    CLIENT_ID("clientId", "use client id");

    private final String word;
    private final String verb;

    Operation(String word, String verb) {
        this.word = word;
        this.verb = verb;
    }

    /** The word a roles file uses. */
    public String word() {
        return word;
    }

    /** How a refusal says it: "may not consume from queue 'orders'". */
    public String verb() {
        return verb;
    }

    /** The operation a roles file names, case-insensitively; null if none. */
    public static Operation named(String word) {
        for (Operation o : values()) {
            if (o.word.toLowerCase(Locale.ROOT).equals(word.toLowerCase(Locale.ROOT))) {
                return o;
            }
        }
        return null;
    }
}
