package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.partita.broker.network.connection.RemoteFeed;

/**
 * One client consumer's feed from the other hosting nodes, over fake links to two of them: a part
 * opens on each node with the credit the client granted, the client's requests reach every part,
 * and what the parts own and deliver reaches the client. Each node's part has session 1 and
 * consumer 2 there.
 */
class ConsumerFeedTest {
    private final RecordingFeedSink client = new RecordingFeedSink();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ConsumerFeed feed = new ConsumerFeed("orders", "orders", null, 10, 0, client, () -> closed.set(true));
    private final FakeFeedLink n2 = new FakeFeedLink("n2");
    private final FakeFeedLink n3 = new FakeFeedLink("n3");

    /** The feed with a part on both nodes, the requests of the opening taken. */
    private void upOnBoth() {
        feed.peerUp(n2);
        feed.peerUp(n3);
        n2.connection().takeRequests();
        n3.connection().takeRequests();
    }

    @Test
    void aNodeUpTwiceHasOnePart() {
        feed.peerUp(n2);
        feed.peerUp(n2);

        assertEquals(
                List.of("openSession s1", "openConsumer s1 c2 orders selector=null credit=10"),
                n2.connection().takeRequests());
    }

    @Test
    void aPartOpenedLaterStartsWithTheCreditGrantedSinceTheLastDrain() {
        feed.peerUp(n2);
        feed.credit(5);
        feed.peerUp(n3);
        assertTrue(n3.connection().takeRequests().contains("openConsumer s1 c2 orders selector=null credit=15"));

        feed.drain().join();
        FakeFeedLink n4 = new FakeFeedLink("n4");
        feed.peerUp(n4);
        assertTrue(n4.connection().takeRequests().contains("openConsumer s1 c2 orders selector=null credit=0"));
    }

    @Test
    void creditDrainAndUpdateReachEveryPart() {
        upOnBoth();

        feed.credit(5);
        feed.drain().join();
        feed.update(null, 20, null);

        List<String> expected = List.of("credit c2 5", "drain c2", "update c2 priority=null messages=20 bytes=null");
        assertEquals(expected, n2.connection().takeRequests());
        assertEquals(expected, n3.connection().takeRequests());
    }

    @Test
    void aDrainCompletesOnceEveryNodeDrained() {
        upOnBoth();
        CompletableFuture<Void> n3Drained = new CompletableFuture<>();
        n3.connection().drainAnswer = n3Drained;

        CompletableFuture<Void> drained = feed.drain();
        assertFalse(drained.isDone(), "n3 may still deliver what the credit allowed");

        n3Drained.complete(null);
        assertTrue(drained.isDone());
    }

    @Test
    void aPriorityChangeOpensLaterPartsWithIt() {
        feed.update(7, null, null);

        feed.peerUp(n2);

        assertTrue(n2.connection()
                .takeRequests()
                .contains("openConsumer s1 c2 orders?priority=7 selector=null credit=10"));
    }

    @Test
    void whetherTheConsumerIsSpareHereReachesEveryPartWhenItChanges() {
        upOnBoth();

        feed.spare(true);
        feed.spare(true);
        feed.spare(false);

        assertEquals(List.of("spare c2 true", "spare c2 false"), n2.connection().takeRequests());
        assertEquals(List.of("spare c2 true", "spare c2 false"), n3.connection().takeRequests());
    }

    @Test
    void aPartOpenedLaterIsToldWhetherTheConsumerIsSpareOnlyOnceThisNodeSaid() {
        feed.peerUp(n2);
        assertEquals(2, n2.connection().takeRequests().size(), "opened, no spare said");

        feed.spare(true);
        feed.peerUp(n3);

        assertEquals("spare c2 true", n3.connection().takeRequests().get(2));
    }

    @Test
    void thePartitionsOwnedOnTheNodesReachTheClientAsTheirUnion() {
        upOnBoth();

        n2.owns(0, 1);
        n3.owns(2);

        assertEquals(Set.of(0, 1, 2), last(client.ownedChanges()));
    }

    @Test
    void aSetLedElsewhereNowTakesItsPartitionsFromEveryOtherNodesPart() {
        upOnBoth();
        n2.owns(0, 1);
        n3.owns(2, 3);

        // the set keeping partitions 1 and 3 is led by n3 now: n2 (paused, say) cannot say it lost 1
        feed.ledElsewhere("n3", p -> p == 1 || p == 3);
        assertEquals(Set.of(0, 2, 3), last(client.ownedChanges()), "n3 still serves 3; n2 no longer 1");

        int told = client.ownedChanges().size();
        feed.ledElsewhere("n3", p -> p == 1 || p == 3);
        assertEquals(told, client.ownedChanges().size(), "nothing changed: the client is not told again");

        feed.ledElsewhere(null, p -> p == 2); // an election: nobody serves 2
        assertEquals(Set.of(0, 3), last(client.ownedChanges()));
    }

    @Test
    void aNodeGoneTakesItsPartitionsFromTheClient() {
        upOnBoth();
        n2.owns(0, 1);
        n3.owns(2);

        feed.peerDown("n2");

        assertEquals(Set.of(2), last(client.ownedChanges()));
        assertEquals(Set.of(), n2.registered());
    }

    @Test
    void aNodeGoneThatHadNoPartChangesNothing() {
        upOnBoth();
        n2.owns(0);
        int told = client.ownedChanges().size();

        feed.peerDown("n4");

        assertEquals(told, client.ownedChanges().size());
    }

    @Test
    void aNodeNoLongerHostingTheQueueLosesItsPartAndItsPartitions() {
        upOnBoth();
        n2.owns(0);
        n3.owns(1);

        feed.keepOnly(List.of("n2"));

        assertEquals(
                List.of("closeConsumer c2", "closeSession s1"), n3.connection().takeRequests());
        assertEquals(List.of(), n2.connection().takeRequests());
        assertEquals(Set.of(0), last(client.ownedChanges()));
    }

    @Test
    void aRecoverGivesEachNodeOnlyTheDeliveriesThatCameFromIt() {
        upOnBoth();
        n2.deliver(4);
        n3.deliver(7);
        n2.deliver(5);
        List<RemoteFeed.Handle> seen = List.copyOf(client.handles());

        feed.holdDeliveries();
        feed.recover(seen);

        assertEquals(List.of("recover s1 seen=[4, 5]"), n2.connection().takeRequests());
        assertEquals(List.of("recover s1 seen=[7]"), n3.connection().takeRequests());
    }

    @Test
    void theRoomOfDeliveriesLetGoOfGoesBackOnlyToTheNodesThatMadeThem() {
        ConsumerFeed windowed = new ConsumerFeed("orders", "orders", null, 10, 4096, client, () -> {});
        windowed.peerUp(n2);
        windowed.peerUp(n3);
        assertTrue(n2.connection()
                .takeRequests()
                .contains("openConsumer s1 c2 orders selector=null credit=10 window=4096"));
        n3.connection().takeRequests();
        n2.deliver(4);
        n3.deliver(7);
        n2.deliver(5);

        windowed.returned(List.copyOf(client.handles()));
        assertEquals(List.of("credit c2 2"), n2.connection().takeRequests());
        assertEquals(List.of("credit c2 1"), n3.connection().takeRequests());

        windowed.credit(3); // granted afresh (after a drain): every node
        assertEquals(List.of("credit c2 3"), n2.connection().takeRequests());
        assertEquals(List.of("credit c2 3"), n3.connection().takeRequests());
    }

    @Test
    void eachNodesDeliveriesAreHeldUntilItsOwnAnswer() {
        upOnBoth();
        feed.holdDeliveries();
        feed.recover(List.of());
        n2.deliver(3);
        n3.deliver(3);

        n2.connection().answerRecover(2);

        assertEquals(List.of("n2:3"), client.messages(), "n3 has not answered");
        n3.connection().answerRecover(3);
        assertEquals(List.of("n2:3"), client.messages(), "n3's delivery 3 was void there");
    }

    @Test
    void aNodeUpAfterTheHoldIsHeldFromTheRecoverUntilItsAnswer() {
        feed.peerUp(n2);
        feed.holdDeliveries();
        feed.peerUp(n3);
        feed.recover(List.of());

        n3.deliver(1);
        assertEquals(List.of(), client.messages());

        n3.connection().answerRecover(0);
        assertEquals(List.of("n3:1"), client.messages());
    }

    @Test
    void onceTheClientConsumerClosedPartsKeepTheirSessionsAndNoneOpens() {
        feed.peerUp(n2);
        n2.connection().takeRequests();

        feed.closeConsumers();
        feed.peerUp(n3);

        assertEquals(List.of("closeConsumer c2"), n2.connection().takeRequests());
        assertEquals(List.of(), n3.connection().takeRequests());
    }

    @Test
    void closingTheFeedEndsEverySessionAndNoPartOpensAfter() {
        upOnBoth();

        feed.close();
        FakeFeedLink n4 = new FakeFeedLink("n4");
        feed.peerUp(n4);

        assertEquals(
                List.of("closeConsumer c2", "closeSession s1"), n2.connection().takeRequests());
        assertEquals(
                List.of("closeConsumer c2", "closeSession s1"), n3.connection().takeRequests());
        assertEquals(List.of(), n4.connection().takeRequests());
        assertTrue(closed.get(), "the cluster forgets the feed");
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }
}
