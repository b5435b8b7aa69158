package org.partita.jms.client;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.partita.jms.message.PartitaMessage;

/**
 * The simplified API's producer: send options, message properties and headers that it applies to every message it
 * sends, through the context's one anonymous producer ({@link ProducerHost}). Lightweight and without a close, as
 * the spec intends; like its context, for one thread at a time.
 *
 * <p>Properties follow the rules of message properties exactly (names usable in a selector, only primitive
 * wrappers and String, the conversions of JMS 3.5.4), because they are checked and converted by a
 * {@link PartitaMessage}.
 */
public class PartitaJMSProducer implements JMSProducer {
    private final ProducerHost host;

    private int deliveryMode = DeliveryMode.PERSISTENT;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;
    private boolean disableMessageId;
    private boolean disableMessageTimestamp;
    private CompletionListener completionListener;

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final Set<String> propertyNames = Collections.unmodifiableSet(properties.keySet());

    // Bytes are held as an ISO-8859-1 string, as PartitaMessage does, so both getters work for either setter.
    private String correlationId;
    private boolean correlationIdAsBytes;
    private String type;
    private Destination replyTo;

    public PartitaJMSProducer(ProducerHost host) {
        this.host = host;
    }

    // ---- sending ------------------------------------------------------------------------------

    @FunctionalInterface
    private interface Body {
        Message create(Session session) throws JMSException;
    }

    @Override
    public JMSProducer send(Destination destination, Message message) {
        return sendBody(destination, s -> {
            if (message == null) {
                throw new jakarta.jms.MessageFormatException("message must not be null");
            }
            return message;
        });
    }

    @Override
    public JMSProducer send(Destination destination, String body) {
        return sendBody(destination, s -> s.createTextMessage(body));
    }

    @Override
    public JMSProducer send(Destination destination, Map<String, Object> body) {
        return sendBody(destination, s -> {
            MapMessage m = s.createMapMessage();
            if (body != null) {
                for (Map.Entry<String, Object> e : body.entrySet()) {
                    m.setObject(e.getKey(), e.getValue());
                }
            }
            return m;
        });
    }

    @Override
    public JMSProducer send(Destination destination, byte[] body) {
        return sendBody(destination, s -> {
            BytesMessage m = s.createBytesMessage();
            if (body != null) {
                m.writeBytes(body);
            }
            return m;
        });
    }

    @Override
    public JMSProducer send(Destination destination, Serializable body) {
        return sendBody(destination, s -> s.createObjectMessage(body));
    }

    private JMSProducer sendBody(Destination destination, Body body) {
        Session session = host.session();
        try {
            PartitaSession.checkDestination(destination, false);
            Message message = body.create(session);
            applyTo(message);
            MessageProducer producer = host.producer();
            CompletionListener listener = completionListener;
            synchronized (producer) {
                producer.setDeliveryDelay(deliveryDelay);
                producer.setDisableMessageID(disableMessageId);
                producer.setDisableMessageTimestamp(disableMessageTimestamp);
                if (listener == null) {
                    producer.send(destination, message, deliveryMode, priority, timeToLive);
                } else {
                    ProducerHost.AsyncSend tracked = host.startAsync(listener);
                    boolean sent = false;
                    try {
                        producer.send(destination, message, deliveryMode, priority, timeToLive, tracked);
                        sent = true;
                    } finally {
                        if (!sent) {
                            tracked.abandon();
                        }
                    }
                }
            }
            return this;
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    /** Producer properties and headers win over those already on the message. */
    private void applyTo(Message message) throws JMSException {
        for (Map.Entry<String, Object> e : properties.entrySet()) {
            message.setObjectProperty(e.getKey(), e.getValue());
        }
        if (correlationId != null) {
            if (correlationIdAsBytes) {
                message.setJMSCorrelationIDAsBytes(correlationId.getBytes(StandardCharsets.ISO_8859_1));
            } else {
                message.setJMSCorrelationID(correlationId);
            }
        }
        if (type != null) {
            message.setJMSType(type);
        }
        if (replyTo != null) {
            message.setJMSReplyTo(replyTo);
        }
    }

    // ---- send options -------------------------------------------------------------------------

    @Override
    public JMSProducer setDisableMessageID(boolean value) {
        disableMessageId = value;
        return this;
    }

    @Override
    public boolean getDisableMessageID() {
        return disableMessageId;
    }

    @Override
    public JMSProducer setDisableMessageTimestamp(boolean value) {
        disableMessageTimestamp = value;
        return this;
    }

    @Override
    public boolean getDisableMessageTimestamp() {
        return disableMessageTimestamp;
    }

    @Override
    public JMSProducer setDeliveryMode(int deliveryMode) {
        try {
            this.deliveryMode = PartitaMessageProducer.checkMode(deliveryMode);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
        return this;
    }

    @Override
    public int getDeliveryMode() {
        return deliveryMode;
    }

    @Override
    public JMSProducer setPriority(int priority) {
        try {
            this.priority = PartitaMessageProducer.checkPriority(priority);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
        return this;
    }

    @Override
    public int getPriority() {
        return priority;
    }

    @Override
    public JMSProducer setTimeToLive(long timeToLive) {
        this.timeToLive = timeToLive;
        return this;
    }

    @Override
    public long getTimeToLive() {
        return timeToLive;
    }

    @Override
    public JMSProducer setDeliveryDelay(long deliveryDelay) {
        this.deliveryDelay = deliveryDelay;
        return this;
    }

    @Override
    public long getDeliveryDelay() {
        return deliveryDelay;
    }

    @Override
    public JMSProducer setAsync(CompletionListener completionListener) {
        this.completionListener = completionListener;
        return this;
    }

    @Override
    public CompletionListener getAsync() {
        return completionListener;
    }

    // ---- properties ---------------------------------------------------------------------------

    /**
     * Checks name and value exactly as a message would: an invalid name is an IllegalArgumentException, a value
     * of a type a property cannot hold a MessageFormatRuntimeException.
     */
    private JMSProducer put(String name, Object value) {
        try {
            new PartitaMessage().setObjectProperty(name, value);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
        properties.put(name, value);
        return this;
    }

    /** A scratch message holding just this property, to read it with the conversions of messages. */
    private PartitaMessage holding(String name) {
        PartitaMessage m = new PartitaMessage();
        if (name != null && properties.containsKey(name)) {
            try {
                m.setObjectProperty(name, properties.get(name));
            } catch (JMSException e) {
                throw JmsRuntimeExceptions.convert(e); // cannot happen: it was accepted by put()
            }
        }
        return m;
    }

    @Override
    public JMSProducer setProperty(String name, boolean value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, byte value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, short value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, int value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, long value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, float value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, double value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, String value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, Object value) {
        return put(name, value);
    }

    @Override
    public JMSProducer clearProperties() {
        properties.clear();
        return this;
    }

    @Override
    public boolean propertyExists(String name) {
        return properties.containsKey(name);
    }

    @Override
    public boolean getBooleanProperty(String name) {
        try {
            return holding(name).getBooleanProperty(name);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public byte getByteProperty(String name) {
        try {
            return holding(name).getByteProperty(name);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public short getShortProperty(String name) {
        try {
            return holding(name).getShortProperty(name);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public int getIntProperty(String name) {
        try {
            return holding(name).getIntProperty(name);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public long getLongProperty(String name) {
        try {
            return holding(name).getLongProperty(name);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public float getFloatProperty(String name) {
        try {
            return holding(name).getFloatProperty(name);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public double getDoubleProperty(String name) {
        try {
            return holding(name).getDoubleProperty(name);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public String getStringProperty(String name) {
        try {
            return holding(name).getStringProperty(name);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public Object getObjectProperty(String name) {
        return properties.get(name);
    }

    /** A live, unmodifiable view of the property names. */
    @Override
    public Set<String> getPropertyNames() {
        return propertyNames;
    }

    // ---- headers ------------------------------------------------------------------------------

    @Override
    public JMSProducer setJMSCorrelationIDAsBytes(byte[] correlationID) {
        this.correlationId = correlationID == null ? null : new String(correlationID, StandardCharsets.ISO_8859_1);
        this.correlationIdAsBytes = correlationID != null;
        return this;
    }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        return correlationId == null ? null : correlationId.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public JMSProducer setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
        this.correlationIdAsBytes = false;
        return this;
    }

    @Override
    public String getJMSCorrelationID() {
        return correlationId;
    }

    @Override
    public JMSProducer setJMSType(String type) {
        this.type = type;
        return this;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public JMSProducer setJMSReplyTo(Destination replyTo) {
        this.replyTo = replyTo;
        return this;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }

    @Override
    public String toString() {
        return "PartitaJMSProducer[" + host + "]";
    }
}
