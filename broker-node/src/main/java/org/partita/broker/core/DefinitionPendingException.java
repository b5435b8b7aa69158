package org.partita.broker.core;

import java.util.concurrent.CompletableFuture;

/**
 * A name created a clustered queue whose definition the cluster is still agreeing on: the caller
 * should try again once {@link #agreed()} completes (a network connection holds the client's next
 * frames meanwhile, so their order is kept).
 */
public final class DefinitionPendingException extends RuntimeException {
    private final transient CompletableFuture<?> agreed;

    public DefinitionPendingException(String queue, CompletableFuture<?> agreed) {
        super("queue '" + queue + "' is being defined across the cluster", null, false, false);
        this.agreed = agreed;
    }

    public CompletableFuture<?> agreed() {
        return agreed;
    }
}
