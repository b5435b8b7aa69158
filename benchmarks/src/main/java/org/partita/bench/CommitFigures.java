package org.partita.bench;

/**
 * How a Partita node's store committed so far: group commits, those a network thread made itself
 * (the writer being idle), and disk syncs. The difference over a run says how its sends were made
 * durable.
 */
record CommitFigures(long groups, long byCaller, long syncs) {

    CommitFigures minus(CommitFigures before) {
        return new CommitFigures(groups - before.groups, byCaller - before.byCaller, syncs - before.syncs);
    }

    /** The three numbers separated by spaces, as {@link #parse} reads them (between processes). */
    String format() {
        return groups + " " + byCaller + " " + syncs;
    }

    static CommitFigures parse(String text) {
        String[] w = text.trim().split(" ");
        return new CommitFigures(Long.parseLong(w[0]), Long.parseLong(w[1]), Long.parseLong(w[2]));
    }

    @Override
    public String toString() {
        return groups + " commits (" + byCaller + " by a network thread at the end of its turn), " + syncs + " syncs";
    }
}
