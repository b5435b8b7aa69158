package org.partita.jms.api;

/**
 * Error codes ({@code JMSException.getErrorCode()}) of what happens on the client's side of a
 * connection that lists several nodes (docs/cluster.md, "Failover").
 */
public final class PartitaErrorCodes {
    /**
     * The connection lost its node and carries on with another. Told to the ExceptionListener; the
     * connection stays usable. Also the code of the TransactionRolledBackException raised by the
     * next commit of a transaction that had work on the lost node.
     */
    public static final String FAILOVER = "PARTITA_FAILOVER";

    /**
     * A request was on its way when its node was lost: whether the node acted on it is unknown (a
     * send may or may not have been stored, a commit may or may not have committed).
     */
    public static final String NODE_LOST = "PARTITA_NODE_LOST";

    private PartitaErrorCodes() {}
}
