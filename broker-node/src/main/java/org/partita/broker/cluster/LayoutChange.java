package org.partita.broker.cluster;

/**
 * A change of a clustered queue's partition count or hosting nodes as the cluster agrees it: an id
 * (unique to the request) and the queue's options after the change. Nodes mark their progress in it
 * with {@link Mark}s, through the same agreement.
 */
record LayoutChange(String id, String options) {
    private static final char SEPARATOR = '|';

    String encode() {
        return id + SEPARATOR + options;
    }

    static LayoutChange decode(String text) {
        int bar = text.indexOf(SEPARATOR);
        return new LayoutChange(text.substring(0, bar), text.substring(bar + 1));
    }

    /** How far a node got in a change. */
    enum Phase {
        /** It holds the queue's sends, and nothing of the queue waits in its store-and-forward logs. */
        FORWARDED,
        /** Every node forwarded, and nothing of the old layout is left in this node's part of the queue. */
        DRAINED
    }

    /** A node's progress in the change {@code id}. */
    record Mark(String id, Phase phase) {
        String encode() {
            return id + SEPARATOR + phase;
        }

        static Mark decode(String text) {
            int bar = text.indexOf(SEPARATOR);
            return new Mark(text.substring(0, bar), Phase.valueOf(text.substring(bar + 1)));
        }
    }
}
