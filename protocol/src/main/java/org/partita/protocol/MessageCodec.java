package org.partita.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.LinkedHashMap;
import java.util.Map;

/** Encodes a {@link WireMessage} to the byte layout of docs/protocol.md ("Message layout") and back. */
public final class MessageCodec {
    private static final int LAYOUT_VERSION = 1;

    private MessageCodec() {}

    /** Skips a length-prefixed byte field after checking it fits; returns null. */
    private static byte[] skipBytes(ByteBuf in) {
        int len = WireFormat.readInt(in);
        if (len < -1 || len > in.readableBytes()) {
            throw WireFormat.malformed("field length " + len + " but only " + in.readableBytes() + " bytes left");
        }
        if (len > 0) {
            in.skipBytes(len);
        }
        return null;
    }

    public static byte[] encode(WireMessage m) {
        if (m.priority() < 0 || m.priority() > 9) {
            throw new IllegalArgumentException("priority must be 0 to 9, not " + m.priority());
        }
        if (m.deliveryMode() != WireMessage.PERSISTENT && m.deliveryMode() != WireMessage.NON_PERSISTENT) {
            throw new IllegalArgumentException("delivery mode must be 1 or 2, not " + m.deliveryMode());
        }
        int estimate = 128
                + (m.body() == null ? 0 : m.body().length)
                + 32 * m.properties().size();
        ByteBuf out = Unpooled.buffer(estimate);
        out.writeByte(LAYOUT_VERSION);
        WireFormat.writeString(out, m.messageId());
        out.writeLong(m.timestamp());
        WireFormat.writeString(out, m.correlationId());
        WireFormat.writeString(out, m.replyTo());
        WireFormat.writeString(out, m.destination());
        WireFormat.writeString(out, m.type());
        out.writeByte(m.deliveryMode());
        out.writeByte(m.priority());
        out.writeLong(m.expiration());
        out.writeLong(m.deliveryTime());
        out.writeInt(m.properties().size());
        for (Map.Entry<String, Object> e : m.properties().entrySet()) {
            WireFormat.writeString(out, e.getKey());
            TypedValues.write(out, e.getValue());
        }
        out.writeByte(m.bodyType());
        WireFormat.writeBytes(out, m.body());
        return ByteBufUtil.getBytes(out, 0, out.writerIndex(), false);
    }

    public static WireMessage decode(byte[] bytes) {
        return decode(bytes, true);
    }

    /** The encoded message with one property set (added, or replaced), the rest as it was. */
    public static byte[] withProperty(byte[] encoded, String name, Object value) {
        WireMessage m = decode(encoded);
        Map<String, Object> properties = new java.util.LinkedHashMap<>(m.properties());
        properties.put(name, value);
        return encode(m.with(properties, m.body()));
    }

    /**
     * The JMSMessageID of an encoded message, read without decoding the rest (it comes first); null
     * if the message has none or the bytes are not a message of this layout.
     */
    public static String peekMessageId(byte[] bytes) {
        if (bytes.length < 5 || bytes[0] != LAYOUT_VERSION) {
            return null;
        }
        int len = ((bytes[1] & 0xff) << 24) | ((bytes[2] & 0xff) << 16) | ((bytes[3] & 0xff) << 8) | (bytes[4] & 0xff);
        if (len < 0 || len > bytes.length - 5) {
            return null;
        }
        return new String(bytes, 5, len, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Decodes headers and properties only: the body is checked but not copied (the node routes and
     * selects on headers and forwards the encoded bytes as they came). {@code body()} is null.
     */
    public static WireMessage decodeHeaders(byte[] bytes) {
        return decode(bytes, false);
    }

    private static WireMessage decode(byte[] bytes, boolean withBody) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        int version = WireFormat.readByte(in);
        if (version != LAYOUT_VERSION) {
            throw WireFormat.malformed("unknown message layout version " + version);
        }
        String messageId = WireFormat.readString(in);
        long timestamp = WireFormat.readLong(in);
        String correlationId = WireFormat.readString(in);
        String replyTo = WireFormat.readString(in);
        String destination = WireFormat.readString(in);
        String type = WireFormat.readString(in);
        int deliveryMode = WireFormat.readByte(in);
        int priority = WireFormat.readByte(in);
        long expiration = WireFormat.readLong(in);
        long deliveryTime = WireFormat.readLong(in);
        int count = WireFormat.readInt(in);
        // The smallest property is a 4-byte name length and a 1-byte type: never size a map by a
        // count the remaining bytes cannot hold, and let it grow rather than trusting the count.
        if (count < 0 || count > in.readableBytes() / 5) {
            throw WireFormat.malformed("message announces " + count + " properties");
        }
        Map<String, Object> properties = new LinkedHashMap<>(Math.min(count, 64) * 2 + 1);
        for (int i = 0; i < count; i++) {
            String name = WireFormat.readString(in);
            if (name == null) {
                throw WireFormat.malformed("property without a name");
            }
            properties.put(name, TypedValues.read(in));
        }
        int bodyType = WireFormat.readByte(in);
        byte[] body = withBody ? WireFormat.readBytes(in) : skipBytes(in);
        if (in.isReadable()) {
            throw WireFormat.malformed("message has " + in.readableBytes() + " trailing bytes");
        }
        if (destination == null) {
            throw WireFormat.malformed("message has no destination");
        }
        if (deliveryMode != WireMessage.PERSISTENT && deliveryMode != WireMessage.NON_PERSISTENT) {
            throw WireFormat.malformed("delivery mode " + deliveryMode);
        }
        if (priority < 0 || priority > 9) {
            throw WireFormat.malformed("priority " + priority);
        }
        return new WireMessage(
                messageId,
                timestamp,
                correlationId,
                replyTo,
                destination,
                type,
                deliveryMode,
                priority,
                expiration,
                deliveryTime,
                properties,
                bodyType,
                body);
    }
}
