package org.partita.jms.message;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.ProtocolException;
import org.partita.protocol.TypedValues;
import org.partita.protocol.WireFormat;

/**
 * Byte layout of map and stream bodies, built on {@link TypedValues} so they use the same value
 * encoding as properties: a count, then the entries (name and value for a map, value for a stream).
 * Malformed input raises {@link ProtocolException}, like the rest of the wire decoding.
 */
final class BodyValues {
    private BodyValues() {}

    static byte[] encodeMap(Map<String, Object> map) {
        ByteBuf out = Unpooled.buffer(16 + 24 * map.size());
        out.writeInt(map.size());
        for (Map.Entry<String, Object> e : map.entrySet()) {
            WireFormat.writeString(out, e.getKey());
            TypedValues.write(out, e.getValue());
        }
        return ByteBufUtil.getBytes(out, 0, out.writerIndex(), false);
    }

    static Map<String, Object> decodeMap(byte[] body) {
        Map<String, Object> map = new LinkedHashMap<>();
        if (body == null) {
            return map;
        }
        ByteBuf in = Unpooled.wrappedBuffer(body);
        int count = count(in);
        for (int i = 0; i < count; i++) {
            String name = WireFormat.readString(in);
            if (name == null) {
                throw malformed("map entry without a name");
            }
            map.put(name, TypedValues.read(in));
        }
        requireFullyRead(in);
        return map;
    }

    static byte[] encodeList(List<Object> values) {
        ByteBuf out = Unpooled.buffer(16 + 16 * values.size());
        out.writeInt(values.size());
        for (Object v : values) {
            TypedValues.write(out, v);
        }
        return ByteBufUtil.getBytes(out, 0, out.writerIndex(), false);
    }

    static List<Object> decodeList(byte[] body) {
        List<Object> values = new ArrayList<>();
        if (body == null) {
            return values;
        }
        ByteBuf in = Unpooled.wrappedBuffer(body);
        int count = count(in);
        for (int i = 0; i < count; i++) {
            values.add(TypedValues.read(in));
        }
        requireFullyRead(in);
        return values;
    }

    /** Every entry takes at least one byte, so a count above the remaining bytes is a lie. */
    private static int count(ByteBuf in) {
        int count = WireFormat.readInt(in);
        if (count < 0 || count > in.readableBytes()) {
            throw malformed("body announces " + count + " entries");
        }
        return count;
    }

    private static void requireFullyRead(ByteBuf in) {
        if (in.isReadable()) {
            throw malformed("body has " + in.readableBytes() + " trailing bytes");
        }
    }

    private static ProtocolException malformed(String why) {
        return new ProtocolException(ErrorCode.MALFORMED_FRAME, why);
    }
}
