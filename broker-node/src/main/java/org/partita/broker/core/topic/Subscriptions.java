package org.partita.broker.core.topic;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.UnknownDestinationException;
import org.partita.protocol.selector.Selector;
import org.partita.protocol.selector.SelectorException;

/**
 * The topic side of a node: which subscriptions exist, who consumes from them, and which of them
 * take a published message. Routing reads a concurrent map without locking; creating and removing
 * subscriptions (rare) is serialised by this object's monitor.
 */
public final class Subscriptions {
    public static final String KIND = "subscription";

    private final Broker broker;
    private final Map<String, Subscription> all = new ConcurrentHashMap<>();
    private final Map<String, SubscriptionDefinition> definitions = new ConcurrentHashMap<>();
    private final Map<String, Integer> consumers = new ConcurrentHashMap<>();
    private final Set<String> temporaryTopics = ConcurrentHashMap.newKeySet();

    public Subscriptions(Broker broker) {
        this.broker = broker;
    }

    /** A durable subscription read back at start-up. */
    public void restore(String name, BrokerQueue queue, String definition) {
        SubscriptionDefinition d = SubscriptionDefinition.parse(definition);
        definitions.put(name, d);
        all.put(name, new Subscription(name, queue, TopicPattern.stored(d.topic()), parse(d.selector()), null));
    }

    /** The queues a message published to {@code topic} goes to. */
    public List<BrokerQueue> routes(String topic, MessageRef m) {
        // a set: one queue fed by overlapping patterns still takes a message once
        java.util.Set<BrokerQueue> out = new java.util.LinkedHashSet<>(4);
        for (Subscription s : all.values()) {
            if (s.takes(topic, m)) {
                if (s.feedsQueue()) {
                    out.addAll(broker.queueTargets(s.queue(), m));
                } else {
                    out.add(s.queue());
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** A queue's {@code subscriptions} option: messages published to matching topics are spooled to it. */
    public void feedQueue(BrokerQueue queue, List<String> patterns) {
        all.values().removeIf(s -> s.feedsQueue() && s.queue().name().equals(queue.name()));
        for (String p : patterns) {
            String name = "feed:" + queue.name() + ":" + p;
            all.put(name, new Subscription(name, queue, TopicPattern.of(p), Selector.matchAll(), null, true));
        }
    }

    /** Stops the topic feeds of a queue that is being deleted. */
    public void unfeedQueue(String queueName) {
        all.values().removeIf(s -> s.feedsQueue() && s.queue().name().equals(queueName));
    }

    /** A plain (non-shared, non-durable) subscription for one consumer; gone when it closes. */
    public synchronized Subscription openPrivate(
            String name, String topic, String selector, boolean noLocal, Object connection) {
        BrokerQueue q = broker.createTemporaryQueue(name);
        Subscription s =
                new Subscription(name, q, TopicPattern.of(topic), parse(selector), noLocal ? connection : null);
        all.put(name, s);
        consumers.merge(name, 1, Integer::sum);
        return s;
    }

    /** A shared non-durable subscription: created by its first consumer, gone with its last. */
    public synchronized Subscription openShared(
            String clientId, String subscriptionName, String topic, String selector) {
        String name = "shared:" + nullToEmpty(clientId) + ":" + subscriptionName;
        Subscription existing = all.get(name);
        if (existing != null) {
            if (!existing.pattern().text().equals(topic) || !sameSelector(existing.selector(), selector)) {
                throw new SubscriptionConflictException("shared subscription '" + subscriptionName
                        + "' exists with another topic or selector and still has consumers");
            }
            consumers.merge(name, 1, Integer::sum);
            return existing;
        }
        Subscription s = new Subscription(
                name, broker.createTemporaryQueue(name), TopicPattern.of(topic), parse(selector), null);
        all.put(name, s);
        consumers.put(name, 1);
        return s;
    }

    /**
     * A durable subscription, shared or not. An unshared one takes one consumer at a time; opening it
     * with another topic, selector or noLocal replaces it (JMS 6.11.1), as does a shared one without consumers.
     */
    public synchronized Subscription openDurable(
            String clientId,
            String subscriptionName,
            String topic,
            String selector,
            boolean noLocal,
            boolean shared,
            Object connection) {
        String name = durableName(clientId, subscriptionName);
        SubscriptionDefinition d = definitions.get(name);
        int active = consumers.getOrDefault(name, 0);
        if (d != null) {
            if (d.shared() != shared) {
                throw new SubscriptionConflictException("durable subscription '" + subscriptionName + "' exists and is "
                        + (d.shared() ? "shared" : "not shared"));
            }
            if (!shared && active > 0) {
                throw new SubscriptionConflictException("durable subscription '" + subscriptionName + "' of client id '"
                        + clientId + "' already has an active consumer");
            }
            if (!d.sameAs(topic, selector, noLocal)) {
                if (active > 0) {
                    throw new SubscriptionConflictException("shared durable subscription '" + subscriptionName
                            + "' exists with another topic or selector and still has consumers");
                }
                remove(name);
                d = null;
            }
        }
        if (d == null) {
            d = new SubscriptionDefinition(topic, selector, noLocal, shared);
            definitions.put(name, d);
            BrokerQueue q = broker.createDurableQueue(name, KIND, d.format());
            all.put(name, new Subscription(name, q, TopicPattern.of(topic), parse(selector), null));
        }
        Subscription s = all.get(name);
        if (noLocal) {
            s = new Subscription(name, s.queue(), s.pattern(), s.selector(), connection);
            all.put(name, s);
        }
        consumers.merge(name, 1, Integer::sum);
        return s;
    }

    /** A consumer of the subscription closed; plain and shared non-durable ones end with their last consumer. */
    public synchronized void consumerClosed(Subscription s) {
        int left = consumers.merge(s.name(), -1, Integer::sum);
        if (left <= 0) {
            consumers.remove(s.name());
            if (!definitions.containsKey(s.name())) {
                all.remove(s.name());
                broker.deleteQueue(s.name());
            }
        }
    }

    /** Session.unsubscribe: removes a durable subscription that has no active consumer. */
    public synchronized void unsubscribe(String clientId, String subscriptionName) {
        String name = durableName(clientId, subscriptionName);
        if (!definitions.containsKey(name)) {
            throw new UnknownDestinationException("there is no durable subscription '" + subscriptionName + "'"
                    + (clientId == null ? "" : " for client id '" + clientId + "'"));
        }
        if (consumers.getOrDefault(name, 0) > 0) {
            throw new SubscriptionConflictException(
                    "durable subscription '" + subscriptionName + "' has an active consumer");
        }
        remove(name);
    }

    /** The topic of a durable subscription, or null if there is none by that name (for permission checks). */
    public synchronized String durableTopic(String clientId, String subscriptionName) {
        SubscriptionDefinition d = definitions.get(durableName(clientId, subscriptionName));
        return d == null ? null : d.topic();
    }

    /** Every topic subscription and queue feed, for admin. */
    public List<SubscriptionView> describe() {
        List<SubscriptionView> out = new ArrayList<>();
        for (Subscription s : all.values()) {
            SubscriptionDefinition d = definitions.get(s.name());
            String kind = s.feedsQueue()
                    ? "queue-feed"
                    : d != null
                            ? (d.shared() ? "shared-durable" : "durable")
                            : s.name().startsWith("shared:") ? "shared" : "private";
            out.add(new SubscriptionView(
                    s.name(),
                    kind,
                    s.queue().name(),
                    s.pattern().text(),
                    s.selector().text(),
                    s.feedsQueue() ? 0 : consumers.getOrDefault(s.name(), 0)));
        }
        out.sort(java.util.Comparator.comparing(SubscriptionView::name));
        return out;
    }

    public void createTemporaryTopic(String name) {
        temporaryTopics.add(name);
    }

    public void deleteTemporaryTopic(String name) {
        temporaryTopics.remove(name);
    }

    public boolean temporaryTopicExists(String name) {
        return temporaryTopics.contains(name);
    }

    private void remove(String name) {
        definitions.remove(name);
        all.remove(name);
        broker.deleteQueue(name);
    }

    static String durableName(String clientId, String subscriptionName) {
        return "durable:" + nullToEmpty(clientId) + ":" + subscriptionName;
    }

    private static boolean sameSelector(Selector a, String b) {
        String bt = b == null ? "" : b.strip();
        return a.text().strip().equals(bt);
    }

    private static Selector parse(String selector) {
        try {
            return Selector.parse(selector);
        } catch (SelectorException e) {
            throw new IllegalArgumentException("invalid selector: " + e.getMessage());
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
