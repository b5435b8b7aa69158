package org.partita.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Primitive encodings shared by frames and messages. Every read checks that the announced length
 * fits in what is left, so truncated or hostile input fails with a {@link ProtocolException}
 * instead of an allocation of an attacker-chosen size.
 */
public final class WireFormat {
    private WireFormat() {}

    public static void writeString(ByteBuf out, String s) {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        int written = out.writeCharSequence(s, StandardCharsets.UTF_8);
        out.setInt(lengthIndex, written);
    }

    public static String readString(ByteBuf in) {
        int len = readLength(in);
        if (len < 0) {
            return null;
        }
        String s = in.toString(in.readerIndex(), len, StandardCharsets.UTF_8);
        in.skipBytes(len);
        return s;
    }

    public static void writeBytes(ByteBuf out, byte[] b) {
        if (b == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(b.length);
        out.writeBytes(b);
    }

    public static byte[] readBytes(ByteBuf in) {
        int len = readLength(in);
        if (len < 0) {
            return null;
        }
        byte[] b = new byte[len];
        in.readBytes(b);
        return b;
    }

    public static void writeLongs(ByteBuf out, long[] values) {
        out.writeInt(values.length);
        for (long v : values) {
            out.writeLong(v);
        }
    }

    public static long[] readLongs(ByteBuf in) {
        int n = readInt(in);
        if (n < 0 || (long) n * Long.BYTES > in.readableBytes()) {
            throw malformed("long array of " + n + " elements does not fit in the frame");
        }
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = in.readLong();
        }
        return values;
    }

    public static int readInt(ByteBuf in) {
        need(in, Integer.BYTES);
        return in.readInt();
    }

    public static long readLong(ByteBuf in) {
        need(in, Long.BYTES);
        return in.readLong();
    }

    public static byte readByte(ByteBuf in) {
        need(in, 1);
        return in.readByte();
    }

    public static boolean readBoolean(ByteBuf in) {
        byte b = readByte(in);
        if (b != 0 && b != 1) {
            throw malformed("boolean field holds " + b);
        }
        return b == 1;
    }

    /** Reads a length prefix: -1 (null) or a value that fits in the remaining bytes. */
    private static int readLength(ByteBuf in) {
        int len = readInt(in);
        if (len < -1 || len > in.readableBytes()) {
            throw malformed("field length " + len + " but only " + in.readableBytes() + " bytes left");
        }
        return len;
    }

    private static void need(ByteBuf in, int bytes) {
        if (in.readableBytes() < bytes) {
            throw malformed("frame truncated: needed " + bytes + " more bytes, " + in.readableBytes() + " left");
        }
    }

    static ProtocolException malformed(String why) {
        return new ProtocolException(ErrorCode.MALFORMED_FRAME, why);
    }
}
