package org.partita.jms.transport;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Numbers for a connection's requests or uploads: never 0, which the wire reserves for "none" (a send
 * that wants no answer, a send without an upload), wrapping past it after 2^32 of them.
 */
final class NonZeroIds {
    private final AtomicInteger last = new AtomicInteger();

    int next() {
        int id = last.incrementAndGet();
        return id == 0 ? last.incrementAndGet() : id;
    }
}
