package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.partita.jms.transport.BrokerError;
import org.partita.protocol.ErrorCode;

/**
 * When a forward to another node fails, whether that node certainly did not store the message (it
 * is sent again unflagged) or may have (sent again flagged, so a stored copy is recognised, never
 * delivered as new). A lost link fails the request with INTERNAL, which is not a refusal.
 */
class ForwardOutcomeTest {

    @Test
    void onlyARefusalBeforeStoringMeansTheMessageWasNotStored() {
        assertTrue(DirectOverflow.refusedBeforeStoring(new BrokerError(ErrorCode.RESOURCE_EXHAUSTED, "full")));
        assertTrue(DirectOverflow.refusedBeforeStoring(new CompletionException(
                new BrokerError(ErrorCode.UNKNOWN_DESTINATION, "queue 'jobs' is not defined on node node2 yet"))));
        assertFalse(
                DirectOverflow.refusedBeforeStoring(new CompletionException(
                        new BrokerError(ErrorCode.INTERNAL, "connection to the node was closed"))),
                "the link was lost");
        assertFalse(DirectOverflow.refusedBeforeStoring(new BrokerError(ErrorCode.INTERNAL, "store fault")));
        assertFalse(DirectOverflow.refusedBeforeStoring(new IllegalStateException("anything else")));
    }
}
