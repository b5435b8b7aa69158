package org.partita.jms.api;

/**
 * Error codes ({@code JMSException.getErrorCode()}) the client gives what happens on its side of a
 * connection: reaching a node, and failing over to another (docs/cluster.md, "Failover"). Refusals
 * by the node carry the protocol's code names instead ({@code RESOURCE_EXHAUSTED}, ...).
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

    /** Nothing accepted the connection at the node's address (refused, no route, no answer in connectTimeout). */
    public static final String NODE_UNREACHABLE = "PARTITA_NODE_UNREACHABLE";

    /** Something accepted the connection but is not a Partita node (another protocol, or no answer to the handshake). */
    public static final String NOT_A_NODE = "PARTITA_NOT_A_NODE";

    /**
     * The TLS handshake failed: an {@code ssl://} URL for a node that takes plain connections, a node
     * certificate the trust store does not trust or that names another host.
     */
    public static final String TLS_FAILED = "PARTITA_TLS_FAILED";

    private PartitaErrorCodes() {}
}
