package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.util.function.Predicate;

/**
 * A replicated broker whose nodes run in processes of their own, so that the failover scenario (S8)
 * can kill the one leading its queue as a crash does: SIGKILL, nothing of its JVM runs after it.
 */
interface LeaderKillable extends BrokerUnderTest {

    /** Connections to the node {@link #killLeader()} kills, failing over to the others when it is lost. */
    ConnectionFactory leaderConnectionFactory();

    /** The node {@link #killLeader()} kills, for the report. */
    String leaderName();

    /**
     * Which keys of {@code queue} (its plain name, {@code partitions} partitions) the node to be killed
     * serves now, so whose messages must come from a new leader after the kill: every key for a
     * primary, those of the partitions it leads for a Partita node. Asked once the queue is in use,
     * before the kill.
     */
    Predicate<String> keysOfLeader(String queue, int partitions) throws Exception;

    /** Kills the leader's process with SIGKILL and waits for its end. */
    void killLeader() throws Exception;
}
