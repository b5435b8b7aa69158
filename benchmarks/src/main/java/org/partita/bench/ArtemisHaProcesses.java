package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * An Artemis primary and its replicating backup ({@link ArtemisHaPair}), each in a JVM of its own
 * ({@link ArtemisHaMember}); the backup is in sync before any load. The failover scenario kills the
 * primary's process.
 */
final class ArtemisHaProcesses implements LeaderKillable, ArtemisUnderTest {
    private static final long START_SECONDS = 120;

    private final JvmProcess primary;
    private final JvmProcess backup;
    private final ActiveMQConnectionFactory cf;
    private final String url;

    private ArtemisHaProcesses(JvmProcess primary, JvmProcess backup, String url) {
        this.primary = primary;
        this.backup = backup;
        this.url = url;
        this.cf = new ActiveMQConnectionFactory(url);
    }

    /** @param jvmOptions the servers' JVM options (heap, flight recording) */
    static ArtemisHaProcesses start(Path dir, long bufferTimeoutNanos, List<String> jvmOptions) throws Exception {
        int primaryPort = Ports.freeLoopbackPort();
        int backupPort = Ports.freeLoopbackPort();
        JvmProcess primary =
                member(ArtemisHaPair.Role.PRIMARY, dir, primaryPort, backupPort, bufferTimeoutNanos, jvmOptions);
        JvmProcess backup = null;
        try {
            primary.awaitLine("READY", START_SECONDS);
            backup = member(ArtemisHaPair.Role.BACKUP, dir, backupPort, primaryPort, bufferTimeoutNanos, jvmOptions);
            backup.awaitLine("READY", START_SECONDS);
        } catch (Exception e) {
            if (backup != null) {
                backup.close();
            }
            primary.close();
            throw e;
        }
        return new ArtemisHaProcesses(primary, backup, ArtemisHaPair.clientUrl(primaryPort, backupPort));
    }

    private static JvmProcess member(
            ArtemisHaPair.Role role,
            Path dir,
            int ownPort,
            int otherPort,
            long bufferTimeoutNanos,
            List<String> jvmOptions)
            throws Exception {
        String name = role.name().toLowerCase(java.util.Locale.ROOT);
        java.nio.file.Files.createDirectories(dir);
        List<String> args = List.of(
                name,
                dir.resolve(name).toString(),
                Integer.toString(ownPort),
                Integer.toString(otherPort),
                Long.toString(bufferTimeoutNanos));
        return JvmProcess.start(
                ArtemisHaMember.class.getName(),
                jvmOptions,
                args,
                ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile()));
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    /** Every connection goes to the primary: a backup serves nobody until it takes over. */
    @Override
    public ConnectionFactory leaderConnectionFactory() {
        return cf;
    }

    @Override
    public String leaderName() {
        return "primary";
    }

    /** The primary serves every key; all of them come from the backup after the kill. */
    @Override
    public Predicate<String> keysOfLeader(String queue, int partitions) {
        return key -> true;
    }

    @Override
    public void killLeader() throws Exception {
        primary.kill();
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public void close() {
        cf.close();
        backup.close();
        primary.close();
    }
}
