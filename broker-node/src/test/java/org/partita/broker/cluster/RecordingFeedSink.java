package org.partita.broker.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.partita.broker.network.connection.RemoteFeed;

/** The client consumer's side of a feed: what reached it, in the order it did. */
final class RecordingFeedSink implements RemoteFeed.Sink {
    private final List<String> messages = new ArrayList<>();
    private final List<FeedPart.Delivered> handles = new ArrayList<>();
    private final List<Set<Integer>> owned = new ArrayList<>();

    @Override
    public synchronized void deliver(RemoteFeed.Handle handle, int deliveryCount, int partition, byte[] message) {
        messages.add(new String(message, StandardCharsets.UTF_8));
        handles.add((FeedPart.Delivered) handle);
    }

    @Override
    public synchronized void partitionsChanged(Set<Integer> now) {
        owned.add(Set.copyOf(now));
    }

    /** The messages delivered, each {@code <peer>:<deliveryId>}. */
    synchronized List<String> messages() {
        return List.copyOf(messages);
    }

    synchronized List<FeedPart.Delivered> handles() {
        return List.copyOf(handles);
    }

    /** Each union of owned partitions the client was told, in order. */
    synchronized List<Set<Integer>> ownedChanges() {
        return List.copyOf(owned);
    }
}
