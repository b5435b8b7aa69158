package org.partita.broker.network.connection;

import java.util.concurrent.CompletionException;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.broker.core.queue.QueueOptionConflictException;
import org.partita.broker.core.queue.UnknownDestinationException;
import org.partita.broker.core.topic.SubscriptionConflictException;
import org.partita.broker.store.StoreUnavailableException;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.ProtocolException;

/**
 * The error code a failure of the node's work means to the client, whether the work failed while
 * its frame was handled or later, in the future that answers it: the one mapping, so that the same
 * refusal gets the same code either way. {@code INTERNAL} is left for what is a bug.
 */
final class FailureCodes {
    private FailureCodes() {}

    /** The failure inside a {@link CompletionException}, or the failure itself. */
    static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    static ErrorCode of(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof ProtocolException p) {
            return p.code();
        }
        if (t instanceof UnknownDestinationException) {
            return ErrorCode.UNKNOWN_DESTINATION;
        }
        if (t instanceof SubscriptionConflictException) {
            return ErrorCode.ILLEGAL_STATE;
        }
        if (t instanceof QueueOptionConflictException) {
            return ErrorCode.INVALID_DESTINATION;
        }
        if (t instanceof QueueFullException || t instanceof StoreUnavailableException) {
            return ErrorCode.RESOURCE_EXHAUSTED; // a resource the client may wait for, not a bug
        }
        if (t instanceof IllegalArgumentException) {
            return ErrorCode.INVALID_REQUEST; // a bad option value, a malformed name or argument
        }
        return ErrorCode.INTERNAL;
    }

    /** Whether a commit that failed this way was rolled back (its work stored nowhere). */
    static boolean rollsBackACommit(Throwable failure) {
        Throwable t = unwrap(failure);
        return t instanceof QueueFullException || t instanceof StoreUnavailableException;
    }
}
