package org.partita.protocol;

import io.netty.buffer.ByteBuf;

/**
 * Self-describing values: one type byte, then the value. Used for message properties and for the
 * bodies of map and stream messages.
 */
public final class TypedValues {
    public static final byte NULL = 0;
    public static final byte BOOLEAN = 1;
    public static final byte BYTE = 2;
    public static final byte SHORT = 3;
    public static final byte INT = 4;
    public static final byte LONG = 5;
    public static final byte FLOAT = 6;
    public static final byte DOUBLE = 7;
    public static final byte STRING = 8;
    public static final byte BYTES = 9;
    public static final byte CHAR = 10;

    private TypedValues() {}

    public static void write(ByteBuf out, Object value) {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof String s) {
            out.writeByte(STRING);
            WireFormat.writeString(out, s);
        } else if (value instanceof Integer i) {
            out.writeByte(INT);
            out.writeInt(i);
        } else if (value instanceof Long l) {
            out.writeByte(LONG);
            out.writeLong(l);
        } else if (value instanceof Boolean b) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(b);
        } else if (value instanceof Byte b) {
            out.writeByte(BYTE);
            out.writeByte(b);
        } else if (value instanceof Short s) {
            out.writeByte(SHORT);
            out.writeShort(s);
        } else if (value instanceof Float f) {
            out.writeByte(FLOAT);
            out.writeFloat(f);
        } else if (value instanceof Double d) {
            out.writeByte(DOUBLE);
            out.writeDouble(d);
        } else if (value instanceof byte[] b) {
            out.writeByte(BYTES);
            WireFormat.writeBytes(out, b);
        } else if (value instanceof Character c) {
            out.writeByte(CHAR);
            out.writeChar(c);
        } else {
            throw new IllegalArgumentException(
                    "unsupported value type " + value.getClass().getName());
        }
    }

    public static Object read(ByteBuf in) {
        byte type = WireFormat.readByte(in);
        return switch (type) {
            case NULL -> null;
            case BOOLEAN -> WireFormat.readBoolean(in);
            case BYTE -> WireFormat.readByte(in);
            case SHORT -> {
                need(in, 2);
                yield in.readShort();
            }
            case INT -> WireFormat.readInt(in);
            case LONG -> WireFormat.readLong(in);
            case FLOAT -> Float.intBitsToFloat(WireFormat.readInt(in));
            case DOUBLE -> Double.longBitsToDouble(WireFormat.readLong(in));
            case STRING -> WireFormat.readString(in);
            case BYTES -> WireFormat.readBytes(in);
            case CHAR -> {
                need(in, 2);
                yield in.readChar();
            }
            default -> throw WireFormat.malformed("unknown value type " + type);
        };
    }

    private static void need(ByteBuf in, int n) {
        if (in.readableBytes() < n) {
            throw WireFormat.malformed("value truncated");
        }
    }
}
