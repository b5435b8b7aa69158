package org.partita.broker.admin;

/**
 * The node as a whole, for {@code node.status}, the console and the operator.
 *
 * @param heldMessages       messages held by every queue, waiting and in flight
 * @param storeBytes         bytes of the node's data folder on disk
 * @param residentBytes      payload bytes of stored messages held in memory
 * @param residentBudgetBytes the node's {@code residentBytes} setting
 * @param directUsedBytes    direct (off-heap) buffer memory in use
 * @param directMaxBytes     the most direct memory the JVM allows
 * @param metricsPort        the HTTP port of metrics and console, or -1 when off
 * @param messagesWritten    message payloads the store committed since the node started (-1: a store without figures)
 * @param entriesWritten     queue entries the store committed since the node started (-1: a store without figures)
 */
public record NodeStatus(
        String name,
        String url,
        String dataDir,
        long uptimeMillis,
        boolean authentication,
        int queues,
        int connections,
        int sessions,
        int consumers,
        long heldMessages,
        long heldBytes,
        long storeBytes,
        long residentBytes,
        long residentBudgetBytes,
        long heapUsedBytes,
        long heapMaxBytes,
        long directUsedBytes,
        long directMaxBytes,
        int metricsPort,
        long messagesWritten,
        long entriesWritten) {}
