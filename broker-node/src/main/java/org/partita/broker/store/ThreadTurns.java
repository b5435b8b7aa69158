package org.partita.broker.store;

/**
 * Threads that work in turns: a network event loop reads what its ready connections sent, runs the
 * tasks queued to it, and starts over. The store gathers what such a thread writes during one turn
 * and commits it when the turn ends, on that thread when it may ({@link GroupCommitWriter}).
 */
public interface ThreadTurns {

    /** No thread works in turns: every write goes to the store's writer thread. */
    ThreadTurns NONE = work -> false;

    /**
     * Runs {@code work} on the calling thread once its current turn is over, if the calling thread
     * works in turns.
     *
     * @return false, without running it, when the calling thread has no turns
     */
    boolean atEndOfTurn(Runnable work);
}
