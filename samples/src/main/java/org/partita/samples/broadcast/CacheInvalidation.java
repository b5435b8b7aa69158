package org.partita.samples.broadcast;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import javax.naming.Context;
import javax.naming.InitialContext;
import org.partita.samples.support.Sample;
import org.partita.samples.support.SampleNode;
import org.partita.samples.support.SampleQueues;
import org.partita.samples.support.StoreWrites;
import org.partita.samples.support.Story;
import org.partita.samples.support.Verdict;
import org.partita.samples.support.Waiting;
import picocli.CommandLine.Command;

/**
 * The third source document's broadcast mode, used for cache invalidation: every instance that is
 * running when an invalidation is sent drops the entry; nothing is stored, so an invalidation sent
 * when nobody listens is gone and an instance that starts later gets only what is sent from then on
 * (it loads fresh data when it starts anyway).
 */
@Command(
        name = "cache-invalidation",
        description = "Broadcast: cache invalidations reach every live instance; nothing is stored")
public final class CacheInvalidation extends Sample {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final List<String> PRODUCTS =
            IntStream.rangeClosed(1, 10).mapToObj(i -> "product-" + i).toList();

    public static void main(String[] args) {
        exit(new CacheInvalidation(), args);
    }

    @Override
    protected Verdict run(SampleNode node, Story story) throws Exception {
        Hashtable<String, Object> env = node.jndiEnvironment();
        env.put("queue.invalidations", "cache-invalidation");
        Context jndi = new InitialContext(env);
        ConnectionFactory factory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        Queue invalidations = (Queue) jndi.lookup("invalidations");
        List<PriceCache> all = new ArrayList<>();
        Map<PriceCache, List<String>> running = new LinkedHashMap<>(); // and what each should have received so far
        Map<PriceCache, List<String>> expected = new LinkedHashMap<>();
        try (SampleQueues queues = SampleQueues.on(factory);
                JMSContext publisher = factory.createContext()) {
            queues.declare("cache-invalidation", Map.of("mode", "broadcast"));
            story.say("declared cache-invalidation: mode=broadcast");
            // a persistent send (the default) returns once the node has passed the message on; in
            // broadcast mode that involves no disk write
            JMSProducer producer = publisher.createProducer();
            List<Boolean> dropped = new ArrayList<>();
            StoreWrites beforeSending = queues.storeWrites();

            story.part("Nobody listens yet");
            producer.send(invalidations, "product-9");
            story.say("invalidated product-9 with no instance running: it goes nowhere");

            story.part("Three instances run, each with its own cache of " + PRODUCTS.size() + " prices");
            for (String name : List.of("cache-1", "cache-2", "cache-3")) {
                all.add(start(name, factory, invalidations, running));
            }
            dropped.add(invalidate("product-3", producer, invalidations, running, story));
            dropped.add(invalidate("product-7", producer, invalidations, running, story));

            story.part("A fourth instance starts");
            all.add(start("cache-4", factory, invalidations, running));
            dropped.add(invalidate("product-5", producer, invalidations, running, story));

            story.part("cache-2 stops");
            PriceCache stopped = all.get(1);
            stopped.close();
            expected.put(stopped, running.remove(stopped));
            dropped.add(invalidate("product-1", producer, invalidations, running, story));
            expected.putAll(running);
            int kept = queues.depth("cache-invalidation");
            StoreWrites stored = queues.storeWrites().since(beforeSending);
            story.say("invalidations waiting in the queue for anyone: %d; the store wrote %s", kept, stored);

            Verdict verdict = new Verdict()
                    .check(
                            "every running instance dropped each entry invalidated while it ran",
                            dropped.stream().allMatch(d -> d),
                            dropped.size() + " invalidations");
            for (PriceCache c : all) {
                verdict.check(
                        c.name() + " received exactly what was sent while it ran",
                        c.invalidations().equals(expected.get(c)),
                        "got " + c.invalidations() + ", expected " + expected.get(c));
            }
            return verdict.check(
                            "nothing is stored",
                            stored.messages() == 0 && stored.entries() == 0,
                            (dropped.size() + 1) + " invalidations sent, the store wrote " + stored)
                    .check("nothing waits in the queue", kept == 0, kept + " waiting");
        } finally {
            for (PriceCache c : all) {
                c.close();
            }
            jndi.close();
        }
    }

    private static PriceCache start(
            String name, ConnectionFactory factory, Queue invalidations, Map<PriceCache, List<String>> running)
            throws JMSException {
        PriceCache cache = new PriceCache(name, factory, invalidations, PRODUCTS);
        running.put(cache, new ArrayList<>());
        return cache;
    }

    /** Sends one invalidation and waits until every running instance has dropped the entry. */
    private static boolean invalidate(
            String product,
            JMSProducer producer,
            Queue invalidations,
            Map<PriceCache, List<String>> running,
            Story story)
            throws InterruptedException {
        producer.send(invalidations, product);
        running.values().forEach(received -> received.add(product));
        boolean dropped = Waiting.until(LIMIT, () -> running.keySet().stream().noneMatch(c -> c.holds(product)));
        story.say(
                "invalidated %s: %s",
                product,
                dropped
                        ? "dropped by " + names(running.keySet())
                        : "still cached by "
                                + names(running.keySet().stream()
                                        .filter(c -> c.holds(product))
                                        .toList()));
        return dropped;
    }

    private static List<String> names(Collection<PriceCache> caches) {
        return caches.stream().map(PriceCache::name).toList();
    }
}
