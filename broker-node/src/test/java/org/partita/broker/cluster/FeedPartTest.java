package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.partita.broker.network.connection.RemoteFeed;

/**
 * One client consumer's consumer on one other node, over a fake link: what the part asks of that
 * node, and which of the deliveries coming back it lets through. What a recover relies on: the
 * deliveries crossing it on the wire are held until that node's fence is known, then those numbered
 * up to the fence are dropped (that node hands them out again) and the others go on in order. The
 * first part opened on a link has session 1 and consumer 2 there.
 */
class FeedPartTest {
    private final RecordingFeedSink client = new RecordingFeedSink();
    private final ConsumerFeed feed = new ConsumerFeed("orders", "orders", null, 10, 0, client, () -> {});
    private final FakeFeedLink link = new FakeFeedLink("n2");
    private final FeedPart part = new FeedPart(feed, link, client);

    /** Opens the part and returns its connection, the requests of the opening taken. */
    private FakeFeedConnection opened() {
        part.open("orders", null, 10, 0, null);
        FakeFeedConnection there = link.connection();
        there.takeRequests();
        return there;
    }

    /** The client's session recovers, having seen none of the part's deliveries: held, then asked there. */
    private void clientRecovers() {
        part.hold();
        part.recover(List.of());
    }

    @Test
    void opensASessionOfItsOwnAndAConsumerThereWithTheClientsCreditAndSelector() {
        part.open("orders", "color = 'red'", 10, 0, null);

        assertEquals(
                List.of("openSession s1", "openConsumer s1 c2 orders selector=color = 'red' credit=10"),
                link.connection().takeRequests());
        assertEquals(Set.of(2), link.registered(), "deliveries to its consumer come to the part");
    }

    @Test
    void aPriorityReplacesTheOneTheDestinationNamedAndKeepsItsOtherOptions() {
        part.open("orders?priority=1&prefetch=5", null, 10, 0, 9);

        assertEquals(
                "openConsumer s1 c2 orders?prefetch=5&priority=9 selector=null credit=10",
                link.connection().takeRequests().get(1));
    }

    @Test
    void opensNothingWhileTheLinkIsDown() {
        FakeFeedConnection before = link.connection();
        link.down();

        part.open("orders", null, 10, 0, null);

        assertEquals(List.of(), before.takeRequests());
        assertEquals(Set.of(), link.registered());
    }

    @Test
    void deliveriesGoStraightToTheClientWhenNoRecoverIsUnderWay() {
        opened();

        link.deliver(1);
        link.deliver(2);

        assertEquals(List.of("n2:1", "n2:2"), client.messages());
    }

    @Test
    void aRecoverHoldsDeliveriesUntilThatNodesAnswerThenDropsTheVoidedOnesAndKeepsTheOrderOfTheRest() {
        FakeFeedConnection there = opened();
        part.hold();
        link.deliver(5);
        link.deliver(6);
        part.recover(List.of());
        link.deliver(7);
        link.deliver(8);
        assertEquals(List.of(), client.messages(), "held: that node has not said which are void");

        there.answerRecover(6);
        assertEquals(List.of("n2:7", "n2:8"), client.messages());
        assertEquals(
                List.of("recover s1 seen=[]", "credit c2 2"),
                there.takeRequests(),
                "the room of the two voided deliveries goes back there: the client never sees them to give it back");

        link.deliver(9);
        assertEquals(List.of("n2:7", "n2:8", "n2:9"), client.messages(), "nothing held once answered");
    }

    @Test
    void aVoidedDeliveryArrivingAfterTheAnswerIsDroppedToo() {
        FakeFeedConnection there = opened();
        clientRecovers();
        there.answerRecover(6);

        there.takeRequests();
        link.deliver(6);
        link.deliver(7);

        assertEquals(List.of("n2:7"), client.messages());
        assertEquals(List.of("credit c2 1"), there.takeRequests(), "the voided delivery's room goes back there");
    }

    /** The client recovered again before that node answered: what came between is void by the second. */
    @Test
    void twoRecoversBackToBackHoldUntilTheSecondAnswer() {
        FakeFeedConnection there = opened();
        clientRecovers();
        link.deliver(5);
        clientRecovers();
        link.deliver(6);

        there.answerRecover(4);
        link.deliver(7);
        assertEquals(List.of(), client.messages(), "the second recover may void what is held");

        there.answerRecover(6);
        assertEquals(List.of("n2:7"), client.messages());
    }

    /**
     * That node may run two recovers of a session in either order: were the second (seen nothing)
     * run first, it would hand delivery 3, which the client saw, back unseen, and it would come
     * again unflagged. So the second is asked only once the first is answered.
     */
    @Test
    void aSecondRecoverIsAskedThereOnlyOnceTheFirstIsAnswered() {
        FakeFeedConnection there = opened();
        link.deliver(3);
        part.hold();
        part.recover(List.of(3L));
        clientRecovers();

        assertEquals(List.of("recover s1 seen=[3]"), there.takeRequests());

        there.answerRecover(3);
        assertEquals(List.of("recover s1 seen=[]"), there.takeRequests());
        link.deliver(4);
        there.answerRecover(4);
        link.deliver(5);
        assertEquals(List.of("n2:3", "n2:5"), client.messages(), "held until the second answer, 4 void by it");
    }

    @Test
    void aRecoverRefusedThereStillLetsTheNextBeAsked() {
        FakeFeedConnection there = opened();
        clientRecovers();
        clientRecovers();

        there.refuseRecover();

        assertEquals(List.of("recover s1 seen=[]", "recover s1 seen=[]"), there.takeRequests());
    }

    @Test
    void aRecoverWaitingForTheOneBeforeIsNotAskedOnceTheLinkIsLost() {
        FakeFeedConnection there = opened();
        clientRecovers();
        clientRecovers();
        link.deliver(5);
        FakeFeedConnection after = link.relink();

        there.answerRecover(4);

        assertEquals(List.of("recover s1 seen=[]"), there.takeRequests());
        assertEquals(List.of(), after.takeRequests(), "the restarted node knows nothing of the session");
        assertEquals(List.of(), client.messages(), "that node hands out again what it held");
    }

    /** A node that came up after the client's hold: its part is held from the recover on. */
    @Test
    void aPartThatJoinedAfterTheHoldIsHeldFromItsRecoverUntilItsAnswer() {
        FakeFeedConnection there = opened();
        part.recover(List.of());
        link.deliver(3);
        link.deliver(4);
        assertEquals(List.of(), client.messages());

        there.answerRecover(3);
        assertEquals(List.of("n2:4"), client.messages());

        part.hold();
        link.deliver(5);
        assertEquals(List.of("n2:4"), client.messages(), "a later recover holds it again");
    }

    @Test
    void aRecoverTellsThatNodeWhichOfItsDeliveriesTheClientSaw() {
        FakeFeedConnection there = opened();
        part.hold();

        part.recover(List.of(3L, 5L));

        assertEquals(List.of("recover s1 seen=[3, 5]"), there.takeRequests());
    }

    @Test
    void aRecoverRefusedThereDropsWhatItHeld() {
        FakeFeedConnection there = opened();
        clientRecovers();
        link.deliver(5);

        there.refuseRecover();

        assertEquals(List.of(), client.messages());
    }

    @Test
    void aRecoverOnALostLinkAsksNothingAndDropsWhatItHeld() {
        FakeFeedConnection there = opened();
        part.hold();
        link.deliver(5);
        link.down();

        part.recover(List.of(5L));

        assertEquals(List.of(), there.takeRequests());
        assertEquals(List.of(), client.messages(), "that node hands them out again itself");
    }

    @Test
    void creditDrainUpdateAndSpareReachTheConsumerThere() {
        FakeFeedConnection there = opened();

        part.credit(5);
        part.credit(0);
        part.drain().join();
        part.update(7, 100, null);
        part.spare(true);

        assertEquals(
                List.of("credit c2 5", "drain c2", "update c2 priority=7 messages=100 bytes=null", "spare c2 true"),
                there.takeRequests());
    }

    @Test
    void creditDrainUpdateAndSpareDoNothingOnALostLink() throws Exception {
        FakeFeedConnection there = opened();
        link.down();

        part.credit(5);
        CompletableFuture<Void> drained = part.drain();
        part.update(7, null, null);
        part.spare(true);

        assertEquals(List.of(), there.takeRequests());
        drained.get(0, TimeUnit.SECONDS);
    }

    /** A restarted node knows nothing of the consumer: the link's new connection must not carry its requests. */
    @Test
    void creditDrainUpdateAndSpareDoNothingOnceThatNodeRestarted() {
        FakeFeedConnection before = opened();
        FakeFeedConnection after = link.relink();

        part.credit(5);
        assertTrue(part.drain().isDone(), "nothing there to wait for");
        part.update(7, null, null);
        part.spare(false);

        assertEquals(List.of(), before.takeRequests());
        assertEquals(List.of(), after.takeRequests());
    }

    @Test
    void aDrainRefusedThereStillCompletes() throws Exception {
        FakeFeedConnection there = opened();
        there.drainAnswer = CompletableFuture.failedFuture(new IllegalStateException("no such consumer"));

        part.drain().get(0, TimeUnit.SECONDS);
    }

    @Test
    void aDeliveryIsAcknowledgedAndReleasedOnTheSessionItCameFrom() throws Exception {
        FakeFeedConnection there = opened();
        link.deliver(4);
        RemoteFeed.Handle handle = client.handles().get(0);

        handle.ack().get(0, TimeUnit.SECONDS);
        handle.release(true);
        handle.release(false);

        assertEquals(
                List.of(
                        "ack s1 [4] confirmed",
                        "release s1 redeliver=[4] unseen=[]",
                        "release s1 redeliver=[] unseen=[4]"),
                there.takeRequests());
        assertSame(feed, handle.feed(), "a recover fences the feed it came from");
    }

    @Test
    void aDeliveryFromBeforeThatNodeRestartedIsSettledThereByItself() throws Exception {
        opened();
        link.deliver(4);
        FakeFeedConnection after = link.relink();
        RemoteFeed.Handle handle = client.handles().get(0);

        handle.ack().get(0, TimeUnit.SECONDS);
        handle.release(true);

        assertEquals(List.of(), after.takeRequests(), "delivery 4 there is another session's, or none");
    }

    @Test
    void thePartitionsThatNodeReportsAreWhatThePartOwns() {
        opened();

        link.owns(3, 1);

        assertEquals(Set.of(1, 3), part.owned());
    }

    @Test
    void aLostPartOwnsNothingAndHearsNoMore() {
        opened();
        link.owns(1, 3);

        part.lost();

        assertEquals(Set.of(), part.owned());
        assertEquals(Set.of(), link.registered());
    }

    /** What the application received through the part is still settled on its session after the close. */
    @Test
    void closingTheConsumerOnceKeepsItsSessionAndRegistration() {
        FakeFeedConnection there = opened();
        link.owns(1);

        part.closeConsumer();
        part.closeConsumer();

        assertEquals(List.of("closeConsumer c2"), there.takeRequests());
        assertEquals(Set.of(2), link.registered(), "a delivery crossing the close is still handed back");
        assertEquals(Set.of(), part.owned());
    }

    @Test
    void closingThePartEndsItsConsumerAndSessionThere() {
        FakeFeedConnection there = opened();

        part.close();

        assertEquals(List.of("closeConsumer c2", "closeSession s1"), there.takeRequests());
        assertEquals(Set.of(), link.registered());
    }
}
