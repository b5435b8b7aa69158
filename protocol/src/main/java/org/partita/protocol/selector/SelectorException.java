package org.partita.protocol.selector;

import java.io.Serial;

/** A selector that does not follow the message selector syntax of Jakarta Messaging 3.1. */
public final class SelectorException extends Exception {

    @Serial
    private static final long serialVersionUID = 1L;

    private final int position;

    SelectorException(String problem, int position) {
        super(problem + " at position " + position);
        this.position = position;
    }

    /** The 0-based character offset in the selector text where the error was found. */
    public int position() {
        return position;
    }
}
