package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.Test;
import org.partita.protocol.Frame;
import org.partita.protocol.WireXid;

/**
 * What the members' answers add up to when this node completed its part of an XA branch split over
 * several places and asks the others for theirs: done only once every member holding another part
 * answered; a member that could not be asked counts only if it holds a part.
 */
class XaRelayTest {
    private static final WireXid XID = new WireXid(1, new byte[] {1}, new byte[] {1});

    private static XaRelay.Asked answered(String node, int code) {
        return new XaRelay.Asked(node, new Frame.XaResult(0, code, code == XAResource.XA_OK ? null : "refused"), null);
    }

    private static XaRelay.Asked down(String node) {
        return new XaRelay.Asked(node, null, "its link is down");
    }

    @Test
    void doneWhenTheHoldersAnsweredDoneOrNoSuchBranch() {
        Frame.XaResult r = XaRelay.restOutcome(
                XID,
                List.of(answered("node2", XAResource.XA_OK), answered("node3", XAException.XAER_NOTA)),
                Set.of("node2"));
        assertEquals(XAResource.XA_OK, r.code());
    }

    @Test
    void aMemberDownThatHoldsNoPartDoesNotHoldTheCommitBack() {
        Frame.XaResult r =
                XaRelay.restOutcome(XID, List.of(answered("node2", XAResource.XA_OK), down("node1")), Set.of("node2"));
        assertEquals(XAResource.XA_OK, r.code());
    }

    @Test
    void aHolderThatCannotBeAskedMeansTryAgain() {
        Frame.XaResult r = XaRelay.restOutcome(
                XID, List.of(answered("node3", XAException.XAER_NOTA), down("node1")), Set.of("node1"));
        assertEquals(XAException.XAER_RMFAIL, r.code());
        assertTrue(r.message().contains("node1"), r.message());
    }

    @Test
    void aMemberThatHoldsNoPartCannotHoldTheCommitBackWithItsAnswer() {
        // node3 keeps a replica set that is between leaders: it answers "try again" for any branch it lacks
        Frame.XaResult r = XaRelay.restOutcome(
                XID,
                List.of(answered("node2", XAResource.XA_OK), answered("node3", XAException.XAER_RMFAIL)),
                Set.of("node2"));
        assertEquals(XAResource.XA_OK, r.code());
    }

    @Test
    void aHoldersRefusalIsPassedOn() {
        Frame.XaResult r =
                XaRelay.restOutcome(XID, List.of(answered("node2", XAException.XAER_RMFAIL)), Set.of("node2"));
        assertEquals(XAException.XAER_RMFAIL, r.code());
    }
}
