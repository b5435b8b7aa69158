package org.partita.broker.network.connection;

import java.util.ArrayList;
import java.util.List;

/**
 * What one client consumer with a byte window was sent and has not given credit back for, oldest
 * first: where each delivery came from (this node's queue, or another node through the consumer's
 * {@link RemoteFeed}) and its length. The client gives credit back as a count of deliveries it let
 * go of; matching that count against this ledger tells each source how much room came back, in
 * messages and bytes, without the client having to know sizes or sources.
 *
 * <p>The client lets deliveries go in about the order they came (its buffer is first in, first
 * out; a few go back early, such as those of a partition that moved), so the bytes given back to a
 * source can be early or late by a message or two, never lost: every delivery is let go of once,
 * and a drain starts the ledger afresh. Not thread-safe: its consumer guards it.
 */
final class PrefetchLedger {
    /** A delivery of this node's own queue. */
    static final Object LOCAL = new Object();

    private Object[] sources = new Object[16];
    private int[] sizes = new int[16];
    private int head;
    private int count;

    /** What {@link #take} found: this node's share, the other nodes' deliveries, and credit beyond all it holds. */
    record Returned(int localMessages, long localBytes, List<RemoteFeed.Handle> remote, int beyond) {}

    void add(Object source, int size) {
        if (count == sources.length) {
            grow();
        }
        int at = (head + count) % sources.length;
        sources[at] = source;
        sizes[at] = size;
        count++;
    }

    /**
     * The client gave back the room of {@code messages} deliveries: the oldest that many leave the
     * ledger. Credit beyond what it holds (the window granted again after a drain or a failover)
     * comes back as {@link Returned#beyond}, room for every source.
     */
    Returned take(int messages) {
        int n = Math.min(messages, count);
        int localMessages = 0;
        long localBytes = 0;
        List<RemoteFeed.Handle> remote = List.of();
        for (int i = 0; i < n; i++) {
            Object source = sources[head];
            if (source == LOCAL) {
                localMessages++;
                localBytes += sizes[head];
            } else {
                if (remote.isEmpty()) {
                    remote = new ArrayList<>();
                }
                remote.add((RemoteFeed.Handle) source);
            }
            sources[head] = null;
            head = (head + 1) % sources.length;
        }
        count -= n;
        return new Returned(localMessages, localBytes, remote, messages - n);
    }

    /** A drain took all credit back: nothing sent before it is to be matched any more. */
    void clear() {
        java.util.Arrays.fill(sources, null);
        head = 0;
        count = 0;
    }

    int size() {
        return count;
    }

    private void grow() {
        Object[] s = new Object[sources.length * 2];
        int[] z = new int[sources.length * 2];
        for (int i = 0; i < count; i++) {
            s[i] = sources[(head + i) % sources.length];
            z[i] = sizes[(head + i) % sources.length];
        }
        sources = s;
        sizes = z;
        head = 0;
    }
}
