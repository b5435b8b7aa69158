package org.partita.broker.core.dispatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.WireMessage;
import org.partita.protocol.selector.Selector;

/**
 * Drives a dispatch engine by hand, without a node: entries built from real encoded messages,
 * consumers whose deliveries are recorded, and a host that delivers, settles and expires as
 * {@link BrokerQueue} does (minus the store).
 */
public final class EngineFixture implements DispatchEngine.Host {
    /** Every delivery, in order, as "consumer:text". */
    final List<String> deliveries = new ArrayList<>();
    /** Every expired message, in order, by text. */
    final List<String> expired = new ArrayList<>();

    private final Map<ConsumerRef, List<QueueEntry>> held = new HashMap<>();
    private long nextId = 1;
    /** The engine under test, for what the host gives back to it. */
    DispatchEngine engine;

    public QueueEntry entry(String text, String key) {
        return entry(text, key, 4);
    }

    public QueueEntry entry(String text, String key, int priority) {
        return entry(text, key == null ? Map.of() : Map.of("JMSXGroupID", key), priority, 0L, 0L);
    }

    /** An entry with these properties, expiring at {@code expiration} and due at {@code deliveryTime} (0: none). */
    public QueueEntry entry(String text, Map<String, Object> props, int priority, long expiration, long deliveryTime) {
        WireMessage wire = new WireMessage(
                "ID:" + nextId,
                1000L,
                null,
                null,
                "q:test",
                null,
                WireMessage.PERSISTENT,
                priority,
                expiration,
                deliveryTime,
                props,
                WireMessage.BODY_TEXT,
                text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return new QueueEntry(null, new MessageRef(nextId++, MessageCodec.encode(wire), wire, null), 0);
    }

    ConsumerRef consumer(String name, int credits) {
        return consumer(name, credits, 0);
    }

    ConsumerRef consumer(String name, int credits, int priority) {
        return new ConsumerRef(name, (c, e, p) -> {}, Selector.matchAll(), credits, priority);
    }

    /** What {@code c} holds unsettled, oldest first. */
    List<QueueEntry> heldBy(ConsumerRef c) {
        return held.getOrDefault(c, List.of());
    }

    /** {@code c} acknowledges everything it holds. */
    void ackAll(DispatchEngine engine, ConsumerRef c, long now) {
        for (QueueEntry e : new ArrayList<>(heldBy(c))) {
            settle(engine, c, e, now);
        }
    }

    void settle(DispatchEngine engine, ConsumerRef c, QueueEntry e, long now) {
        held.get(c).remove(e);
        c.settled(e);
        c.addCredits(1);
        engine.settled(e, now);
    }

    static String text(QueueEntry e) {
        return new String(e.message().wire().body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** As a queue without an expiry queue: a message whose expiration passed is dropped. */
    @Override
    public boolean isExpired(QueueEntry e, long now) {
        long exp = e.message().expiration();
        return exp > 0 && exp <= now;
    }

    @Override
    public void expire(QueueEntry e) {
        expired.add(text(e));
    }

    @Override
    public void deliver(ConsumerRef c, QueueEntry e) {
        e.deliveredTo(c);
        c.deliver(e, e.partition());
        held.computeIfAbsent(c, k -> new ArrayList<>()).add(e);
        deliveries.add(c + ":" + text(e));
    }

    /** Taken back at the end of a handoff: it comes back to the engine, redelivered. */
    @Override
    public void revoke(QueueEntry e) {
        ConsumerRef holder = e.holder();
        held.get(holder).remove(e);
        holder.settled(e);
        e.returned(true);
        engine.add(e);
    }
}
