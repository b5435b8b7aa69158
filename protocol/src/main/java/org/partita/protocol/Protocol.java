package org.partita.protocol;

/** Constants of the wire protocol that both ends agree on. */
public final class Protocol {
    /**
     * The version a client announces in {@link Frame.Hello}. 3 added {@link Frame.SendCredit}: a node
     * paces the sends of a version-3 connection by byte credit. 4 added the delivery lease to
     * {@link Frame.HelloOk}. 5 added {@link Frame.Greeting} and a consumer's byte window to {@link Frame.ConsumerOpen}. 6 added
     * large messages ({@link Frame.BodyPart}, {@link Frame.BodyRead}, {@link Frame.BodyData}).
     */
    public static final int VERSION = 6;
    /** The oldest version a node still speaks: it answers a HELLO of any version from this one to {@link #VERSION}. */
    public static final int OLDEST_VERSION = 2;
    /** The first version whose connections receive {@link Frame.SendCredit}. */
    public static final int SEND_CREDIT_VERSION = 3;
    /** The first version whose {@link Frame.HelloOk} carries the node's delivery lease. */
    public static final int DELIVERY_LEASE_VERSION = 4;
    /** The first version whose {@link Frame.ConsumerOpen} may carry the consumer's byte window. */
    public static final int CONSUMER_WINDOW_VERSION = 5;
    /**
     * The first version whose HELLO the node answers at once with {@link Frame.Greeting}, before it
     * checks the login: a client hears within a short bound whether a Partita node listens at all.
     */
    public static final int GREETING_VERSION = 5;
    /** The first version that sends and reads large message bodies in parts. */
    public static final int LARGE_MESSAGE_VERSION = 6;
    /** Property of a message whose body is large, sent and read in parts ({@link Frame.BodyPart},
     * {@link Frame.BodyRead}): its length in bytes. The message's own body is then empty. */
    public static final String LARGE_BODY_BYTES_PROPERTY = "JMS_PARTITA_LargeBodyBytes";
    /** Default largest frame, length prefix excluded, accepted by either side. */
    public static final int DEFAULT_MAX_FRAME_SIZE = 16 * 1024 * 1024;
    /** The TCP port a node listens on when none is configured. */
    public static final int DEFAULT_PORT = 61700;

    private Protocol() {}
}
