package org.partita.broker.network;

import org.partita.broker.core.QueueEntry;

/** A message handed to a consumer of a session and not yet acknowledged or released. */
record Delivery(long id, QueueEntry entry, ServerConsumer consumer) {
}
