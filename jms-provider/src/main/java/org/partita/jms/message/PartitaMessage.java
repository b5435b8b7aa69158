package org.partita.jms.message;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.jms.destination.PartitaDestination;
import org.partita.protocol.WireMessage;

/**
 * A message without a body, and the base of the five body types: headers, properties, the
 * read-only rules and the conversion to a {@link WireMessage}.
 *
 * <p>Headers stay writable at all times because the producer sets them on send, even on a message
 * it received. Properties and body become read-only when a message is received
 * ({@link MessageFactory#fromWire}); {@link #clearProperties()} and {@link #clearBody()} make them
 * writable again, as the spec requires.
 *
 * <p>Like every JMS message, an instance is not safe for use by several threads at once.
 */
public class PartitaMessage implements Message {
    /** Set by the provider on delivery; carried in the delivery frame, never in the stored message. */
    static final String DELIVERY_COUNT = "JMSXDeliveryCount";
    /**
     * Set by the provider on delivery from a partitioned queue: the partition the message came from
     * (an int). Like the delivery count it describes one delivery and is never stored or sent on.
     */
    public static final String PARTITION = org.partita.protocol.ProviderProperties.PARTITION;

    static final String GROUP_ID = "JMSXGroupID";
    static final String GROUP_SEQ = "JMSXGroupSeq";

    private String messageId;
    private long timestamp;
    // Bytes are kept as an ISO-8859-1 string: it maps every byte to one char and back, so the wire
    // needs only one correlation field and byte values survive the round trip unchanged.
    private String correlationId;
    private PartitaDestination replyTo;
    private PartitaDestination destination;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private boolean redelivered;
    private String type;
    private long expiration;
    private long deliveryTime;
    private int priority = Message.DEFAULT_PRIORITY;

    // Insertion order keeps getPropertyNames() and the wire form predictable.
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private boolean propertiesReadOnly;
    private boolean bodyReadOnly;
    private Acknowledger acknowledger;

    public PartitaMessage() {}

    // ---------------------------------------------------------------- headers

    @Override
    public String getJMSMessageID() {
        return messageId;
    }

    @Override
    public void setJMSMessageID(String id) {
        this.messageId = id;
    }

    @Override
    public long getJMSTimestamp() {
        return timestamp;
    }

    @Override
    public void setJMSTimestamp(long timestamp) {
        this.timestamp = timestamp;
    }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        return correlationId == null ? null : correlationId.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void setJMSCorrelationIDAsBytes(byte[] correlationID) {
        this.correlationId = correlationID == null ? null : new String(correlationID, StandardCharsets.ISO_8859_1);
    }

    @Override
    public void setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
    }

    @Override
    public String getJMSCorrelationID() {
        return correlationId;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }

    /** Destinations of other providers are converted, since only Partita ones can go on the wire. */
    @Override
    public void setJMSReplyTo(Destination replyTo) throws JMSException {
        this.replyTo = PartitaDestination.of(replyTo);
    }

    @Override
    public Destination getJMSDestination() {
        return destination;
    }

    @Override
    public void setJMSDestination(Destination destination) throws JMSException {
        this.destination = PartitaDestination.of(destination);
    }

    @Override
    public int getJMSDeliveryMode() {
        return deliveryMode;
    }

    @Override
    public void setJMSDeliveryMode(int deliveryMode) {
        this.deliveryMode = deliveryMode;
    }

    @Override
    public boolean getJMSRedelivered() {
        return redelivered;
    }

    @Override
    public void setJMSRedelivered(boolean redelivered) {
        this.redelivered = redelivered;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public void setJMSType(String type) {
        this.type = type;
    }

    @Override
    public long getJMSExpiration() {
        return expiration;
    }

    @Override
    public void setJMSExpiration(long expiration) {
        this.expiration = expiration;
    }

    @Override
    public long getJMSDeliveryTime() {
        return deliveryTime;
    }

    @Override
    public void setJMSDeliveryTime(long deliveryTime) {
        this.deliveryTime = deliveryTime;
    }

    @Override
    public int getJMSPriority() {
        return priority;
    }

    @Override
    public void setJMSPriority(int priority) {
        this.priority = priority;
    }

    // ---------------------------------------------------------------- properties

    @Override
    public void clearProperties() {
        properties.clear();
        propertiesReadOnly = false;
    }

    @Override
    public boolean propertyExists(String name) {
        return properties.containsKey(name);
    }

    @Override
    public boolean getBooleanProperty(String name) throws JMSException {
        return Conversions.toBoolean(properties.get(name));
    }

    @Override
    public byte getByteProperty(String name) throws JMSException {
        return Conversions.toByte(properties.get(name));
    }

    @Override
    public short getShortProperty(String name) throws JMSException {
        return Conversions.toShort(properties.get(name));
    }

    @Override
    public int getIntProperty(String name) throws JMSException {
        return Conversions.toInt(properties.get(name));
    }

    @Override
    public long getLongProperty(String name) throws JMSException {
        return Conversions.toLong(properties.get(name));
    }

    @Override
    public float getFloatProperty(String name) throws JMSException {
        return Conversions.toFloat(properties.get(name));
    }

    @Override
    public double getDoubleProperty(String name) throws JMSException {
        return Conversions.toDouble(properties.get(name));
    }

    @Override
    public String getStringProperty(String name) throws JMSException {
        return Conversions.toText(properties.get(name));
    }

    @Override
    public Object getObjectProperty(String name) {
        return Conversions.defensiveCopy(properties.get(name));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Enumeration getPropertyNames() {
        // A snapshot, so that the caller may change properties while enumerating.
        return Collections.enumeration(new ArrayList<>(properties.keySet()));
    }

    @Override
    public void setBooleanProperty(String name, boolean value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setByteProperty(String name, byte value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setShortProperty(String name, short value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setIntProperty(String name, int value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setLongProperty(String name, long value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setFloatProperty(String name, float value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setDoubleProperty(String name, double value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setStringProperty(String name, String value) throws JMSException {
        putProperty(name, value);
    }

    /**
     * Only the primitive wrappers and String: the types a selector can compare. Three names are not
     * properties but large message streams (docs/large-messages.md): {@code JMS_PARTITA_InputStream}
     * gives a message to send its body from a stream, {@code JMS_PARTITA_SaveStream} and
     * {@code JMS_PARTITA_OutputStream} write a received message's body to one.
     */
    @Override
    public void setObjectProperty(String name, Object value) throws JMSException {
        if (LargeStreams.isStreamName(name)) {
            LargeStreams.apply(this, name, value);
            return;
        }
        if (value != null && !Conversions.isPropertyType(value)) {
            throw new MessageFormatException(
                    "a property cannot hold a " + value.getClass().getName());
        }
        putProperty(name, value);
    }

    private void putProperty(String name, Object value) throws JMSException {
        if (propertiesReadOnly) {
            throw new MessageNotWriteableException(
                    "the properties of a received message are read-only; call clearProperties() first");
        }
        PropertyNames.validate(name);
        checkJmsxType(name, value);
        properties.put(name, value);
    }

    /**
     * The two JMSX properties applications may set have a type fixed by the spec (table 3-3); a
     * JMSXGroupSeq that is not an int would break every consumer that reads it with getIntProperty.
     */
    private static void checkJmsxType(String name, Object value) throws MessageFormatException {
        if (value == null) {
            return;
        }
        if (GROUP_ID.equals(name) && !(value instanceof String)) {
            throw new MessageFormatException(GROUP_ID + " must be a String");
        }
        if (GROUP_SEQ.equals(name) && !(value instanceof Integer)) {
            throw new MessageFormatException(GROUP_SEQ + " must be an int");
        }
    }

    // ---------------------------------------------------------------- acknowledgement

    /** Installed by the consumer that delivers the message; without one, acknowledge() does nothing. */
    public void setAcknowledger(Acknowledger acknowledger) {
        this.acknowledger = acknowledger;
    }

    @Override
    public void acknowledge() throws JMSException {
        Acknowledger hook = acknowledger;
        if (hook != null) {
            hook.acknowledge();
        }
    }

    // ---------------------------------------------------------------- body

    @Override
    public void clearBody() throws JMSException {
        bodyReadOnly = false;
        clearBodyContent();
    }

    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        Object body = bodyValue();
        if (body == null) {
            return null;
        }
        if (!c.isAssignableFrom(bodyClass(body))) {
            throw new MessageFormatException(
                    "the body of a " + getClass().getSimpleName() + " cannot be returned as " + c.getName());
        }
        return c.cast(body);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) throws JMSException {
        Object body = bodyValue();
        return body == null || c.isAssignableFrom(bodyClass(body));
    }

    /** A copy of the body as getBody returns it, or null when the message has no body. */
    Object bodyValue() throws JMSException {
        return null;
    }

    /** The type a caller of getBody must ask for (or a supertype of it). */
    Class<?> bodyClass(Object body) {
        return body.getClass();
    }

    /** Sends its body from {@code stream} (JMS_PARTITA_InputStream); only a bytes or stream message can. */
    void bodyFrom(java.io.InputStream stream) throws JMSException {
        throw new MessageFormatException("only a BytesMessage or a StreamMessage takes its body from a stream, not a "
                + getClass().getSimpleName().replace("Partita", ""));
    }

    /**
     * Writes its body to {@code out} and returns once written (JMS_PARTITA_SaveStream); only a bytes
     * or stream message can.
     */
    void saveBodyTo(java.io.OutputStream out) throws JMSException {
        throw new MessageFormatException("only a BytesMessage or a StreamMessage writes its body to a stream, not a "
                + getClass().getSimpleName().replace("Partita", ""));
    }

    /**
     * The body to send as a large message's parts, read from its stream, or null when it has none (its
     * body is sent as encoded, large or not by its size).
     */
    public java.io.InputStream streamedBody() throws JMSException {
        return null;
    }

    /** Installs a large body received in parts; the message is read-only, as any received message. */
    void restoreLargeBody(LargeBody body) throws java.io.IOException {
        restoreBody(body.readAll());
    }

    /** Drops the body; the read-only flag has already been reset. */
    void clearBodyContent() throws JMSException {}

    /** One of the {@code WireMessage.BODY_*} constants. */
    int wireBodyType() {
        return WireMessage.BODY_NONE;
    }

    byte[] encodeBody() {
        return null;
    }

    /** Installs a body read from the wire and leaves it read-only, as for any received message. */
    void restoreBody(byte[] body) {
        bodyReadOnly = true;
    }

    boolean isBodyReadOnly() {
        return bodyReadOnly;
    }

    void setBodyReadOnly(boolean readOnly) {
        this.bodyReadOnly = readOnly;
    }

    void checkBodyWritable() throws MessageNotWriteableException {
        if (bodyReadOnly) {
            throw new MessageNotWriteableException("the body is read-only; call clearBody() first");
        }
    }

    /** For bytes and stream messages, where read-only and readable are the same mode. */
    void checkBodyReadable() throws MessageNotReadableException {
        if (!bodyReadOnly) {
            throw new MessageNotReadableException("the body is write-only; call reset() first");
        }
    }

    // ---------------------------------------------------------------- wire

    /**
     * The message as it is sent. JMSXDeliveryCount and JMS_PARTITA_Partition are left out: they
     * describe one delivery and are carried by the delivery frame, so a received message that is
     * sent on starts from scratch.
     */
    public WireMessage toWire() {
        Map<String, Object> props = new LinkedHashMap<>(properties);
        props.remove(DELIVERY_COUNT);
        props.remove(PARTITION);
        return new WireMessage(
                messageId,
                timestamp,
                correlationId,
                encode(replyTo),
                encode(destination),
                type,
                deliveryMode,
                priority,
                expiration,
                deliveryTime,
                Collections.unmodifiableMap(props),
                wireBodyType(),
                encodeBody());
    }

    private static String encode(PartitaDestination d) {
        return d == null ? null : d.encode();
    }

    /** Copies headers and properties of a received message and makes the properties read-only. */
    void restoreHeaders(WireMessage m, int deliveryCount, int partition) {
        messageId = m.messageId();
        timestamp = m.timestamp();
        correlationId = m.correlationId();
        replyTo = PartitaDestination.fromWire(m.replyTo());
        destination = PartitaDestination.fromWire(m.destination());
        type = m.type();
        deliveryMode = m.deliveryMode();
        priority = m.priority();
        expiration = m.expiration();
        deliveryTime = m.deliveryTime();
        redelivered = deliveryCount > 1;
        properties.clear();
        properties.putAll(m.properties());
        properties.put(DELIVERY_COUNT, deliveryCount);
        if (partition >= 0) {
            properties.put(PARTITION, partition);
        } else {
            properties.remove(PARTITION);
        }
        propertiesReadOnly = true;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[id=" + messageId + ", destination=" + destination + "]";
    }
}
