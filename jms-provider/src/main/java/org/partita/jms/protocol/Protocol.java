package org.partita.jms.protocol;

/** Constants of the wire protocol that both ends agree on. */
public final class Protocol {
    /** The version a client announces in {@link Frame.Hello}; a node refuses others. */
    public static final int VERSION = 2;
    /** Default largest frame, length prefix excluded, accepted by either side. */
    public static final int DEFAULT_MAX_FRAME_SIZE = 16 * 1024 * 1024;
    /** The TCP port a node listens on when none is configured. */
    public static final int DEFAULT_PORT = 61700;

    private Protocol() {
    }
}
