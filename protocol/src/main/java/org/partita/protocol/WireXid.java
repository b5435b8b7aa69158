package org.partita.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * An XA transaction branch identifier as it crosses the wire and is stored: format id, global
 * transaction id and branch qualifier (each at most 64 bytes, as the XA specification allows).
 * Equal by content, so it is a map key on the node. Its text form, used by the admin commands, is
 * {@code formatId:gtridHex:bqualHex}.
 */
public record WireXid(int formatId, byte[] gtrid, byte[] bqual) {
    /** MAXGTRIDSIZE and MAXBQUALSIZE of the XA specification. */
    public static final int MAX_PART = 64;

    public WireXid {
        if (gtrid == null || bqual == null) {
            throw new IllegalArgumentException("an XA transaction id needs a global id and a branch qualifier");
        }
        if (gtrid.length == 0 || gtrid.length > MAX_PART || bqual.length > MAX_PART) {
            throw new IllegalArgumentException(
                    "an XA global id takes 1 to " + MAX_PART + " bytes and a branch qualifier" + " at most " + MAX_PART
                            + "; got " + gtrid.length + " and " + bqual.length);
        }
        gtrid = gtrid.clone();
        bqual = bqual.clone();
    }

    @Override
    public byte[] gtrid() {
        return gtrid.clone();
    }

    @Override
    public byte[] bqual() {
        return bqual.clone();
    }

    void write(ByteBuf out) {
        out.writeInt(formatId);
        WireFormat.writeBytes(out, gtrid);
        WireFormat.writeBytes(out, bqual);
    }

    static WireXid read(ByteBuf in) {
        int formatId = WireFormat.readInt(in);
        byte[] g = WireFormat.readBytes(in);
        byte[] b = WireFormat.readBytes(in);
        try {
            return new WireXid(formatId, g, b);
        } catch (IllegalArgumentException e) {
            throw WireFormat.malformed(e.getMessage());
        }
    }

    /** A compact binary form, for storing: format id, then each part with a one-byte length. */
    public byte[] toBytes() {
        return ByteBuffer.allocate(4 + 2 + gtrid.length + bqual.length)
                .putInt(formatId)
                .put((byte) gtrid.length)
                .put(gtrid)
                .put((byte) bqual.length)
                .put(bqual)
                .array();
    }

    /** The inverse of {@link #toBytes()}. */
    public static WireXid fromBytes(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            int formatId = in.getInt();
            byte[] g = new byte[in.get() & 0xff];
            in.get(g);
            byte[] b = new byte[in.get() & 0xff];
            in.get(b);
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("trailing bytes");
            }
            return new WireXid(formatId, g, b);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("a stored XA transaction id is cut short", e);
        }
    }

    /** Reads the text form {@code formatId:gtridHex:bqualHex}; throws IllegalArgumentException naming what is wrong. */
    public static WireXid parse(String text) {
        String[] parts = text == null ? new String[0] : text.trim().split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException(
                    "an XA transaction id is written formatId:gtridHex:bqualHex, not '" + text + "'");
        }
        try {
            return new WireXid(
                    Integer.parseInt(parts[0]),
                    HexFormat.of().parseHex(parts[1]),
                    HexFormat.of().parseHex(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("XA transaction id '" + text + "': " + e.getMessage(), e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WireXid x
                && x.formatId == formatId
                && Arrays.equals(x.gtrid, gtrid)
                && Arrays.equals(x.bqual, bqual);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * formatId + Arrays.hashCode(gtrid)) + Arrays.hashCode(bqual);
    }

    @Override
    public String toString() {
        return formatId + ":" + HexFormat.of().formatHex(gtrid) + ":"
                + HexFormat.of().formatHex(bqual);
    }
}
