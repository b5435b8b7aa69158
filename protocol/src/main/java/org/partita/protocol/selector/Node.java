package org.partita.protocol.selector;

/**
 * A node of a parsed selector. Nodes are immutable and evaluated against a {@link SelectorContext}:
 * conditions yield {@link Boolean#TRUE}, {@link Boolean#FALSE} or null for SQL UNKNOWN; value
 * expressions yield a {@link Number}, a {@link String}, a {@link Boolean} or null for SQL NULL.
 */
interface Node {

    /** What the parser knows about the value of a node before any message is seen. */
    enum Type {
        BOOLEAN,
        NUMERIC,
        STRING,
        /** An identifier: its type is only known when a message is evaluated. */
        ANY
    }

    Object eval(SelectorContext ctx);

    Type type();

    /** 0-based offset in the selector text of the first token of this node. */
    int position();
}
