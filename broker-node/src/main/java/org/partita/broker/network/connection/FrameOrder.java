package org.partita.broker.network.connection;

/**
 * A connection's frames are handled in the order they arrive. A frame whose handling must wait (a
 * HELLO while its password is checked off the event loop, a frame naming a clustered queue whose
 * definition the cluster has not agreed yet) holds back the frames read after it until it is done, so
 * that none overtakes it.
 */
interface FrameOrder {

    /** Whether frames are held back now. */
    boolean holding();

    /** Frames read from now on wait until {@link #resume} or {@link #drop}. */
    void hold();

    /** Handles the frames held back, in order. */
    void resume();

    /** Forgets the frames held back: the connection is refused or gone. */
    void drop();
}
