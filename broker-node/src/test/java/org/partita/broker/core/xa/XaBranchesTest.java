package org.partita.broker.core.xa;

import static javax.transaction.xa.XAException.XAER_DUPID;
import static javax.transaction.xa.XAException.XAER_INVAL;
import static javax.transaction.xa.XAException.XAER_NOTA;
import static javax.transaction.xa.XAException.XAER_PROTO;
import static javax.transaction.xa.XAException.XAER_RMERR;
import static javax.transaction.xa.XAException.XAER_RMFAIL;
import static javax.transaction.xa.XAException.XA_HEURCOM;
import static javax.transaction.xa.XAException.XA_HEURRB;
import static javax.transaction.xa.XAException.XA_RBROLLBACK;
import static javax.transaction.xa.XAException.XA_RBTIMEOUT;
import static javax.transaction.xa.XAResource.TMFAIL;
import static javax.transaction.xa.XAResource.TMJOIN;
import static javax.transaction.xa.XAResource.TMNOFLAGS;
import static javax.transaction.xa.XAResource.TMRESUME;
import static javax.transaction.xa.XAResource.TMSUCCESS;
import static javax.transaction.xa.XAResource.TMSUSPEND;
import static javax.transaction.xa.XAResource.XA_OK;
import static javax.transaction.xa.XAResource.XA_RDONLY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.StoredBranch;
import org.partita.protocol.WireXid;

/**
 * The XA resource manager's branch states on their own, over a stand-in for the node's broker and
 * store ({@link XaBranches.NodeWork}): what a transaction manager relies on (prepare votes and makes
 * the branch durable, commit and rollback complete it, recover lists what is in doubt, forget drops
 * what was completed by hand) and the XAException code each wrong request gets.
 */
class XaBranchesTest {
    private final FakeNode node = new FakeNode();
    private final XaBranches xa = new XaBranches(node);
    private final Object connection = new Object();
    private final Object session = new Object();
    private final WireXid xid = xid("tx-1");

    // ---- association -----------------------------------------------------------------------

    @Test
    void aBranchIdStartedTwiceIsADuplicate() {
        xa.start(xid, TMNOFLAGS, session, connection, 0);
        assertXa(XAER_DUPID, () -> xa.start(xid, TMNOFLAGS, new Object(), connection, 0));
    }

    @Test
    void everyRequestForAnUnknownBranchIsXaerNota() {
        assertXa(XAER_NOTA, () -> xa.start(xid, TMJOIN, session, connection, 0));
        assertXa(XAER_NOTA, () -> xa.end(xid, TMSUCCESS, session));
        assertXa(XAER_NOTA, () -> xa.prepare(xid));
        assertXa(XAER_NOTA, () -> xa.commit(xid, true));
        assertXa(XAER_NOTA, () -> xa.commit(xid, false));
        assertXa(XAER_NOTA, () -> xa.rollback(xid));
        assertXa(XAER_NOTA, () -> xa.forget(xid));
        assertXa(XAER_NOTA, () -> xa.resolve(xid, true));
    }

    @Test
    void unknownFlagsAreXaerInval() {
        assertXa(XAER_INVAL, () -> xa.start(xid, TMSUCCESS, session, connection, 0));
        xa.start(xid, TMNOFLAGS, session, connection, 0);
        assertXa(XAER_INVAL, () -> xa.end(xid, TMJOIN, session));
    }

    @Test
    void anotherSessionJoinsAWorkingBranchButNotTwice() {
        XaBranch b = xa.start(xid, TMNOFLAGS, session, connection, 0);
        Object other = new Object();
        assertEquals(b, xa.start(xid, TMJOIN, other, connection, 0));
        assertTrue(xa.isActive(b, other));
        assertXa(XAER_PROTO, () -> xa.start(xid, TMJOIN, other, connection, 0));
        assertXa(XAER_PROTO, () -> xa.end(xid, TMSUCCESS, new Object()), "a session that is not in it cannot end it");
    }

    @Test
    void onlyTheSessionThatSuspendedABranchResumesIt() {
        XaBranch b = xa.start(xid, TMNOFLAGS, session, connection, 0);
        xa.end(xid, TMSUSPEND, session);
        assertFalse(xa.isActive(b, session));
        assertXa(XAER_PROTO, () -> xa.start(xid, TMRESUME, new Object(), connection, 0));
        xa.start(xid, TMRESUME, session, connection, 0);
        assertTrue(xa.isActive(b, session));
    }

    @Test
    void aBranchWithSessionsStillAssociatedCannotBePreparedNorCommitted() {
        XaBranch b = xa.start(xid, TMNOFLAGS, session, connection, 0);
        xa.addSend(b, send());
        assertXa(XAER_PROTO, () -> xa.prepare(xid));
        assertXa(XAER_PROTO, () -> xa.commit(xid, true));
        xa.end(xid, TMSUSPEND, session);
        assertXa(XAER_PROTO, () -> xa.prepare(xid), "a suspended association counts too");
        assertTrue(node.reserved.isEmpty());
    }

    // ---- prepare -----------------------------------------------------------------------------

    @Test
    void aBranchThatDidNothingVotesReadOnlyAndIsGone() throws Exception {
        started();
        xa.end(xid, TMSUCCESS, session);
        assertEquals(XA_RDONLY, xa.prepare(xid).get());
        assertTrue(node.writes.isEmpty(), "nothing to store");
        assertTrue(xa.recover().isEmpty());
        assertXa(XAER_NOTA, () -> xa.commit(xid, false));
    }

    @Test
    void prepareReservesTheSendsStoresTheBranchAndRecoverListsIt() throws Exception {
        Broker.PendingSend send = send();
        XaBranch b = started();
        xa.addSend(b, send);
        xa.end(xid, TMSUCCESS, session);

        assertEquals(XA_OK, xa.prepare(xid).get());
        assertEquals(List.of(List.of(send)), node.reserved, "room reserved for the send");
        StoreOp.SaveBranch saved = (StoreOp.SaveBranch) node.writes.get(0).ops().get(0);
        assertArrayEquals(xid.toBytes(), saved.xid());
        assertEquals(XaBranches.STORED_PREPARED, saved.state());
        assertEquals(List.of(xid), xa.recover());
        InDoubtBranch view = xa.inDoubt().get(0);
        assertEquals("PREPARED", view.state());
        assertEquals(1, view.sent());
        assertFalse(view.restored());
    }

    @Test
    void aPartReadBackFromAReplicaSetIsHeldOnceUntilTheSetIsLedElsewhere() {
        org.partita.broker.store.MessageStore set = setStore("node1+node2+node3");
        xa.restorePart(set, List.of(partIn("node1+node2+node3"))).finish(name -> null);
        assertEquals(List.of(xid), xa.recover(), "the set's leader holds the part the lost node prepared");
        // read back again (the set lost and regained): one part, not two
        xa.restorePart(set, List.of(partIn("node1+node2+node3"))).finish(name -> null);
        assertEquals(1, xa.inDoubt().size());

        xa.letGo(set);
        assertTrue(xa.recover().isEmpty(), "led elsewhere now: the set's next leader holds it");
        assertXa(XAER_NOTA, () -> xa.commit(xid, false));
    }

    @Test
    void aPartCommittedHereNamesThePlacesHoldingTheOthers() throws Exception {
        org.partita.broker.store.MessageStore set = setStore("node1+node2+node3");
        xa.restorePart(set, List.of(partIn("node1+node2+node3"))).finish(name -> null);
        assertEquals(null, xa.restElsewhere(xid), "nothing completed yet");

        xa.commit(xid, false).get();
        assertEquals(
                List.of("node:node1"),
                xa.restElsewhere(xid),
                "the part in node1's own store is asked of node1 (its record named it)");
        assertEquals(List.of(set), node.completedIn, "the record's deletion written where the part is");
    }

    @Test
    void aBranchBeingPreparedIsNotInDoubtYetAndCannotBeRolledBackMeanwhile() throws Exception {
        xa.addSend(started(), send());
        xa.end(xid, TMSUCCESS, session);
        CompletableFuture<Void> write = node.holdWrites();
        CompletableFuture<Integer> vote = xa.prepare(xid);
        assertFalse(vote.isDone(), "the vote waits for the branch to be stored");
        assertTrue(xa.recover().isEmpty());
        assertXa(XAER_PROTO, () -> xa.rollback(xid));
        write.complete(null);
        assertEquals(XA_OK, vote.get());
        assertEquals(List.of(xid), xa.recover());
    }

    @Test
    void aPrepareTheStoreCannotKeepFailsUndoesTheReservationAndForgetsTheBranch() {
        Broker.PendingSend send = send();
        xa.addSend(started(), send);
        xa.end(xid, TMSUCCESS, session);
        node.failWrites(new StoreException("disk full", null));
        assertXa(XAER_RMERR, xa.prepare(xid));
        assertEquals(List.of(List.of(send)), node.unreserved, "the room reserved for it is given back");
        assertTrue(xa.recover().isEmpty());
        assertXa(XAER_NOTA, () -> xa.commit(xid, false));
    }

    @Test
    void aPrepareOfSendsToAFullQueueRollsTheBranchBack() {
        OutsideWorkLog elsewhere = new OutsideWorkLog();
        XaBranch b = started();
        xa.addSend(b, send());
        xa.addOutside(b, elsewhere);
        xa.end(xid, TMSUCCESS, session);
        node.reserveFails = true;
        assertXa(XA_RBROLLBACK, () -> xa.prepare(xid));
        assertEquals(1, elsewhere.rollbacks, "what it consumed on another node goes back");
        assertTrue(node.writes.isEmpty());
        assertXa(XAER_NOTA, () -> xa.rollback(xid));
    }

    // ---- commit ------------------------------------------------------------------------------

    @Test
    void aTwoPhaseCommitCompletesThePreparedWorkWithTheBranchsRecordDeletedInTheSameBatch() throws Exception {
        Broker.PendingSend send = send();
        OutsideWorkLog elsewhere = new OutsideWorkLog();
        prepared(send, elsewhere);

        xa.commit(xid, false).get();
        assertEquals(List.of(send), node.completed.get(0).sends());
        StoreOp.DeleteBranch delete =
                (StoreOp.DeleteBranch) node.completed.get(0).extra().get(0);
        assertArrayEquals(xid.toBytes(), delete.xid());
        assertEquals(1, elsewhere.commits, "what it consumed on another node is consumed there, after");
        assertEquals(0, elsewhere.rollbacks);
        assertTrue(xa.recover().isEmpty());
        assertXa(XAER_NOTA, () -> xa.commit(xid, false));
    }

    @Test
    void aCommitTheStoreCannotKeepLeavesTheBranchPreparedForAnotherTry() throws Exception {
        prepared(send(), new OutsideWorkLog());
        node.completeFails = true;
        int before = node.writes.size();
        assertXa(XAER_RMFAIL, xa.commit(xid, false)); // not RMERR, which tells a TM the work rolled back
        assertEquals(List.of(xid), xa.recover(), "still in doubt");
        // another store may have taken its part with the deletion of the record: the record is written again
        StoreOp.SaveBranch again =
                (StoreOp.SaveBranch) node.writes.get(before).ops().get(0);
        assertArrayEquals(xid.toBytes(), again.xid());
        assertEquals(XaBranches.STORED_PREPARED, again.state());
        node.completeFails = false;
        xa.commit(xid, false).get();
        assertTrue(xa.recover().isEmpty());
    }

    /** Found committing a branch through a node just restarted: it stayed "completing" for good. */
    @Test
    void aCommitRefusedBeforeAnythingWasWrittenLeavesTheBranchPreparedForAnotherTry() throws Exception {
        prepared(send(), new OutsideWorkLog());
        node.completeRefuses = true;
        assertXa(XAER_RMFAIL, xa.commit(xid, false));
        assertEquals(List.of(xid), xa.recover(), "still in doubt");
        node.completeRefuses = false;
        xa.commit(xid, false).get();
        assertTrue(xa.recover().isEmpty());
    }

    @Test
    void aTwoPhaseCommitNeedsAPreparedBranchAndAOnePhaseCommitAnUnpreparedOne() throws Exception {
        xa.addSend(started(), send());
        xa.end(xid, TMSUCCESS, session);
        assertXa(XAER_PROTO, () -> xa.commit(xid, false));
        xa.prepare(xid).get();
        assertXa(XAER_PROTO, () -> xa.commit(xid, true));
    }

    @Test
    void aOnePhaseCommitCommitsTheSendsWithoutStoringTheBranch() throws Exception {
        Broker.PendingSend send = send();
        OutsideWorkLog elsewhere = new OutsideWorkLog();
        XaBranch b = started();
        xa.addSend(b, send);
        xa.addOutside(b, elsewhere);
        xa.end(xid, TMSUCCESS, session);

        xa.commit(xid, true).get();
        assertEquals(List.of(List.of(send)), node.committed);
        assertTrue(node.writes.isEmpty(), "no branch record for a one-phase commit");
        assertEquals(1, elsewhere.commits);
        assertXa(XAER_NOTA, () -> xa.rollback(xid));
    }

    @Test
    void aOnePhaseCommitTheStoreCannotKeepRollsBack() {
        OutsideWorkLog elsewhere = new OutsideWorkLog();
        XaBranch b = started();
        xa.addSend(b, send());
        xa.addOutside(b, elsewhere);
        xa.end(xid, TMSUCCESS, session);
        node.completeFails = true;
        assertXa(XA_RBROLLBACK, xa.commit(xid, true));
        assertEquals(1, elsewhere.rollbacks);
        assertEquals(0, elsewhere.commits);
        assertXa(XAER_NOTA, () -> xa.commit(xid, true));
    }

    /** Not XA_RBROLLBACK: a part may be stored, and a transaction manager must not take it for rolled back. */
    @Test
    void aOnePhaseCommitLeftInDoubtIsAHeuristicHazard() {
        XaBranch b = started();
        xa.addSend(b, send());
        xa.end(xid, TMSUCCESS, session);
        node.commitInDoubt = true;
        assertXa(javax.transaction.xa.XAException.XA_HEURHAZ, xa.commit(xid, true));
    }

    // ---- rollback ----------------------------------------------------------------------------

    @Test
    void rollingBackAWorkingBranchDropsItsWorkAtOnce() throws Exception {
        OutsideWorkLog elsewhere = new OutsideWorkLog();
        AtomicLong givenBack = new AtomicLong();
        XaBranch b = started();
        assertTrue(xa.admit(b, 100, 1_000, givenBack::addAndGet));
        xa.addSend(b, send());
        xa.addOutside(b, elsewhere);
        xa.end(xid, TMSUCCESS, session);

        xa.rollback(xid).get();
        assertEquals(1, elsewhere.rollbacks);
        assertEquals(100, givenBack.get(), "the bytes its sends counted are given back");
        assertTrue(node.writes.isEmpty(), "nothing was stored, nothing to delete");
        assertXa(XAER_NOTA, () -> xa.prepare(xid));
    }

    @Test
    void rollingBackAPreparedBranchDeletesItsRecordAndGivesBackTheRoomOfItsSends() throws Exception {
        Broker.PendingSend send = send();
        OutsideWorkLog elsewhere = new OutsideWorkLog();
        prepared(send, elsewhere);

        xa.rollback(xid).get();
        assertInstanceOf(StoreOp.DeleteBranch.class, node.writes.get(1).ops().get(0));
        assertEquals(List.of(List.of(send)), node.unreserved);
        assertEquals(1, elsewhere.rollbacks);
        assertTrue(xa.recover().isEmpty());
    }

    @Test
    void aRollbackTheStoreCannotKeepLeavesTheBranchPrepared() throws Exception {
        prepared(send(), new OutsideWorkLog());
        node.failWrites(new StoreException("disk full", null));
        assertXa(XAER_RMFAIL, xa.rollback(xid));
        assertEquals(List.of(xid), xa.recover());
        assertTrue(node.unreserved.isEmpty(), "its sends keep their room while it stays prepared");
    }

    @Test
    void aBranchEndedWithTmfailCanOnlyRollBack() {
        OutsideWorkLog elsewhere = new OutsideWorkLog();
        XaBranch b = started();
        xa.addSend(b, send());
        xa.addOutside(b, elsewhere);
        assertXa(XA_RBROLLBACK, () -> xa.end(xid, TMFAIL, session));
        assertEquals(1, elsewhere.rollbacks, "its work is dropped at once");
        assertFalse(xa.addSend(b, send()), "a send into it is refused");
        assertXa(XA_RBROLLBACK, () -> xa.prepare(xid));
        assertXa(XAER_NOTA, () -> xa.prepare(xid), "the transaction manager heard; it is gone");
    }

    @Test
    void aBranchNotPreparedWithinItsTimeoutRollsBack() {
        XaBranch b = xa.start(xid, TMNOFLAGS, session, connection, 30);
        assertEquals(List.of(30L), node.timeoutSeconds());
        xa.addSend(b, send());
        xa.end(xid, TMSUCCESS, session);
        node.timers.get(0).fire();
        assertXa(XA_RBTIMEOUT, () -> xa.prepare(xid));
    }

    @Test
    void aPrepareCancelsTheTimeout() throws Exception {
        XaBranch b = xa.start(xid, TMNOFLAGS, session, connection, 30);
        xa.addSend(b, send());
        xa.end(xid, TMSUCCESS, session);
        xa.prepare(xid).get();
        assertTrue(node.timers.get(0).isCancelled());
        node.timers.get(0).fire(); // a timer that fires late anyway changes nothing
        assertEquals(List.of(xid), xa.recover());
    }

    @Test
    void whenItsConnectionClosesAnUnpreparedBranchRollsBackButAPreparedOneStays() throws Exception {
        OutsideWorkLog elsewhere = new OutsideWorkLog();
        XaBranch working = xa.start(xid("working"), TMNOFLAGS, session, connection, 0);
        xa.addOutside(working, elsewhere);
        prepared(send(), new OutsideWorkLog());

        xa.sessionClosed(session);
        xa.connectionClosed(connection);
        assertEquals(1, elsewhere.rollbacks);
        assertXa(XAER_NOTA, () -> xa.prepare(xid("working")));
        assertEquals(List.of(xid), xa.recover(), "a prepared branch waits for its transaction manager");
    }

    @Test
    void aSendPastTheBranchsLimitIsRefusedAndCountsNothing() {
        XaBranch b = started();
        assertTrue(xa.admit(b, 600, 1_000, bytes -> {}));
        assertFalse(xa.admit(b, 600, 1_000, bytes -> {}));
        assertTrue(xa.admit(b, 400, 1_000, bytes -> {}));
    }

    // ---- heuristic completion ------------------------------------------------------------------

    @Test
    void aBranchCommittedByHandIsReportedAsHeuristicUntilForgotten() throws Exception {
        Broker.PendingSend send = send();
        prepared(send, new OutsideWorkLog());

        xa.resolve(xid, true).get();
        assertEquals(List.of(send), node.completed.get(0).sends());
        StoreOp.SaveBranch decision =
                (StoreOp.SaveBranch) node.completed.get(0).extra().get(0);
        assertEquals(XaBranches.STORED_HEURISTIC_COMMITTED, decision.state());
        assertEquals(List.of(xid), xa.recover(), "the transaction manager must still hear of it");
        assertEquals("HEURISTIC_COMMITTED", xa.inDoubt().get(0).state());
        assertXa(XA_HEURCOM, () -> xa.commit(xid, false));
        assertXa(XA_HEURCOM, () -> xa.rollback(xid));

        xa.forget(xid).get();
        assertInstanceOf(
                StoreOp.DeleteBranch.class,
                node.writes.get(node.writes.size() - 1).ops().get(0));
        assertTrue(xa.recover().isEmpty());
    }

    @Test
    void aBranchRolledBackByHandIsHeurrbAndItsSendsGiveBackTheirRoom() throws Exception {
        Broker.PendingSend send = send();
        prepared(send, new OutsideWorkLog());
        xa.resolve(xid, false).get();
        assertEquals(List.of(List.of(send)), node.unreserved);
        assertXa(XA_HEURRB, () -> xa.commit(xid, false));
        assertEquals(List.of(xid), xa.recover());
    }

    @Test
    void onlyABranchCompletedByHandIsForgottenAndOnlyAPreparedOneIsCompletedByHand() throws Exception {
        XaBranch b = started();
        xa.addSend(b, send());
        assertXa(XAER_PROTO, () -> xa.resolve(xid, true));
        xa.end(xid, TMSUCCESS, session);
        xa.prepare(xid).get();
        assertXa(XAER_PROTO, () -> xa.forget(xid));
    }

    // ---- restart -----------------------------------------------------------------------------

    @Test
    void storedBranchesComeBackInDoubtAndDamagedOnesAreLeftOut() {
        WireXid prepared = xid("prepared");
        WireXid byHand = xid("by-hand");
        byte[] record = new BranchRecord(List.of(), List.of(), 1234).encode();
        BranchRestore restore = xa.restore(List.of(
                new StoredBranch(prepared.toBytes(), XaBranches.STORED_PREPARED, record),
                new StoredBranch(byHand.toBytes(), XaBranches.STORED_HEURISTIC_ROLLED_BACK, new byte[0]),
                new StoredBranch(xid("odd").toBytes(), 99, new byte[0]),
                new StoredBranch(xid("torn").toBytes(), XaBranches.STORED_PREPARED, new byte[] {7}),
                new StoredBranch(new byte[] {1, 2}, XaBranches.STORED_PREPARED, record)));
        restore.finish(name -> {
            throw new AssertionError("no sends to give back");
        });

        assertEquals(
                List.of(byHand.toString(), prepared.toString()),
                xa.inDoubt().stream().map(v -> v.xid().toString()).toList());
        InDoubtBranch p = xa.inDoubt().stream()
                .filter(v -> v.xid().equals(prepared))
                .findFirst()
                .orElseThrow();
        assertEquals(1234, p.preparedAt());
        assertTrue(p.restored());
        assertXa(XA_HEURRB, () -> xa.rollback(byHand));
    }

    // ---- helpers -----------------------------------------------------------------------------

    private static WireXid xid(String gtrid) {
        return new WireXid(0x1234, gtrid.getBytes(StandardCharsets.UTF_8), new byte[] {1});
    }

    /**
     * A send to no queue: the registry hands its sends to the broker as they are and reads their
     * message only for the queues that store it (and, when the branch drops it, for a large body it
     * has not), so a stand-in message does here.
     */
    /** A replica set's store, as far as the registry looks at it: its name. */
    private static org.partita.broker.store.MessageStore setStore(String name) {
        return (org.partita.broker.store.MessageStore) java.lang.reflect.Proxy.newProxyInstance(
                XaBranchesTest.class.getClassLoader(),
                new Class<?>[] {org.partita.broker.store.MessageStore.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "setName", "toString" -> name;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** The part of {@link #xid} a replica set keeps, as the node that prepared it (node1) wrote it there. */
    private org.partita.broker.store.StoredBranch partIn(String set) {
        byte[] record = new BranchRecord(List.of(), List.of(), 5L, List.of("set:" + set, "node:node1")).encode();
        return new org.partita.broker.store.StoredBranch(xid.toBytes(), XaBranches.STORED_PREPARED, record);
    }

    private static Broker.PendingSend send() {
        return new Broker.PendingSend(List.of(), org.partita.broker.core.queue.MessageRef.probe(4));
    }

    private XaBranch started() {
        return xa.start(xid, TMNOFLAGS, session, connection, 0);
    }

    /** {@link #xid}, prepared with one send and one piece of work on another node. */
    private void prepared(Broker.PendingSend send, OutsideWork elsewhere) throws Exception {
        XaBranch b = started();
        xa.addSend(b, send);
        xa.addOutside(b, elsewhere);
        xa.end(xid, TMSUCCESS, session);
        assertEquals(XA_OK, xa.prepare(xid).get());
    }

    private static void assertXa(int code, Executable request) {
        assertXa(code, request, null);
    }

    private static void assertXa(int code, Executable request, String why) {
        XaError e = assertThrows(XaError.class, request, why);
        assertEquals(code, e.code(), e.getMessage());
    }

    /** A request that fails later, on its future. */
    private static void assertXa(int code, CompletableFuture<?> request) {
        CompletionException e = assertThrows(CompletionException.class, request::join);
        XaError x = assertInstanceOf(XaError.class, e.getCause());
        assertEquals(code, x.code(), x.getMessage());
    }

    /** Work a branch consumed on another node: counts how it was settled. */
    private static final class OutsideWorkLog implements OutsideWork {
        int commits;
        int rollbacks;

        @Override
        public CompletableFuture<Void> commit() {
            commits++;
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void rollback() {
            rollbacks++;
        }
    }

    record Completion(List<Broker.PendingSend> sends, List<QueueEntry> locked, List<StoreOp> extra) {}

    /** Stands in for the broker and its store: records each call; writes succeed at once unless told. */
    private static final class FakeNode implements XaBranches.NodeWork {
        final List<List<Broker.PendingSend>> reserved = new ArrayList<>();
        final List<List<Broker.PendingSend>> unreserved = new ArrayList<>();
        final List<List<Broker.PendingSend>> committed = new ArrayList<>();
        final List<Completion> completed = new ArrayList<>();
        final List<org.partita.broker.store.MessageStore> completedIn = new ArrayList<>();
        final List<StoreBatch> writes = new ArrayList<>();
        final List<ManualTimer> timers = new ArrayList<>();
        boolean reserveFails;
        boolean completeFails;
        /** commit fails leaving its write in doubt, as when a replica set took its part and lost its leader. */
        boolean commitInDoubt;
        /** complete throws at once, as when a replica set the sends go to is not open yet. */
        boolean completeRefuses;

        private CompletableFuture<Void> nextWrite;
        private RuntimeException writeFailure;

        CompletableFuture<Void> holdWrites() {
            nextWrite = new CompletableFuture<>();
            return nextWrite;
        }

        void failWrites(RuntimeException e) {
            writeFailure = e;
        }

        List<Long> timeoutSeconds() {
            return timers.stream().map(t -> t.seconds).toList();
        }

        @Override
        public void reserve(List<Broker.PendingSend> sends) {
            if (reserveFails) {
                throw new QueueFullException("queue 'q' is full");
            }
            reserved.add(List.copyOf(sends));
        }

        @Override
        public void unreserve(List<Broker.PendingSend> sends) {
            unreserved.add(List.copyOf(sends));
        }

        @Override
        public CompletableFuture<Void> commit(List<Broker.PendingSend> sends, List<Broker.Consumed> consumed) {
            if (commitInDoubt) {
                return CompletableFuture.failedFuture(new org.partita.broker.store.replica.ReplicaInDoubtException(
                        "a replica set took its part and lost its leader", null));
            }
            if (completeFails) {
                return CompletableFuture.failedFuture(new StoreException("disk full", null));
            }
            committed.add(List.copyOf(sends));
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> complete(
                List<Broker.PendingSend> sends,
                List<Broker.Consumed> consumed,
                List<QueueEntry> locked,
                List<StoreOp> extra,
                java.util.Collection<org.partita.broker.store.MessageStore> extraIn) {
            if (completeRefuses) {
                throw new IllegalStateException("node node1 keeps no replica of partition 2 of queue 'ledger'");
            }
            if (completeFails) {
                return CompletableFuture.failedFuture(new StoreException("disk full", null));
            }
            completed.add(new Completion(List.copyOf(sends), List.copyOf(locked), List.copyOf(extra)));
            completedIn.addAll(extraIn);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            writes.add(batch);
            if (writeFailure != null) {
                return CompletableFuture.failedFuture(writeFailure);
            }
            if (nextWrite != null) {
                CompletableFuture<Void> held = nextWrite;
                nextWrite = null;
                return held;
            }
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public String place(org.partita.broker.store.MessageStore store) {
            return store == null ? "node:node1" : "set:" + store.setName();
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable task, long seconds) {
            ManualTimer t = new ManualTimer(task, seconds);
            timers.add(t);
            return t;
        }
    }

    /** A timer the test fires by hand. */
    private static final class ManualTimer implements ScheduledFuture<Object> {
        final Runnable task;
        final long seconds;
        private boolean cancelled;

        ManualTimer(Runnable task, long seconds) {
            this.task = task;
            this.seconds = seconds;
        }

        void fire() {
            task.run();
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(seconds, TimeUnit.SECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            cancelled = true;
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return cancelled;
        }

        @Override
        public Object get() {
            return null;
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            return null;
        }
    }
}
