package org.partita.protocol;

/** The one-byte type code that follows every frame's length. Numbers are wire format. */
public enum FrameType {
    HELLO(1),
    HELLO_OK(2),
    OK(3),
    ERROR(4),
    SESSION_OPEN(5),
    SESSION_CLOSE(6),
    SEND(7),
    CONSUMER_OPEN(8),
    CONSUMER_CLOSE(9),
    CREDIT(10),
    DELIVER(11),
    ACK(12),
    RELEASE(13),
    COMMIT(14),
    ROLLBACK(15),
    BROWSE(16),
    BROWSE_CHUNK(17),
    DESTINATION_OP(18),
    CREATED(19),
    PING(20),
    CLOSE(21),
    RECOVER(22),
    RECOVERED(23),
    CONSUMER_UPDATE(24),
    PARTITIONS(25),
    ADMIN(26),
    ADMIN_REPLY(27),
    REQUEST_FAILED(28),
    DRAIN(29),
    FORWARD(30),
    SEND_CREDIT(31),
    GREETING(32),
    // large message bodies, in parts beside the SEND and DELIVER that name them (docs/protocol.md, "Large messages")
    BODY_PART(33),
    BODY_READ(34),
    BODY_DATA(35),
    // XA transaction branches (docs/protocol.md, "XA"): numbered from 40 on
    XA_START(40),
    XA_END(41),
    XA_PREPARE(42),
    XA_COMMIT(43),
    XA_ROLLBACK(44),
    XA_FORGET(45),
    XA_RECOVER(46),
    XA_RESULT(47),
    XA_RECOVERED(48);

    private static final FrameType[] BY_CODE = new FrameType[64];

    static {
        for (FrameType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    FrameType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static FrameType fromCode(int code) {
        FrameType t = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        if (t == null) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "unknown frame type " + code);
        }
        return t;
    }
}
