package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * An Artemis primary and its replicating backup ({@link ArtemisHaPair}) embedded in this JVM, the
 * backup in sync before the run starts; every connection goes to the primary, ready to fail over.
 */
final class ArtemisHaBroker implements ArtemisUnderTest {
    private final EmbeddedActiveMQ primary;
    private final EmbeddedActiveMQ backup;
    private final ActiveMQConnectionFactory cf;
    private final String url;

    private ArtemisHaBroker(EmbeddedActiveMQ primary, EmbeddedActiveMQ backup, String url) {
        this.primary = primary;
        this.backup = backup;
        this.url = url;
        this.cf = new ActiveMQConnectionFactory(url);
    }

    static ArtemisHaBroker start(Path dir, long bufferTimeoutNanos) throws Exception {
        int primaryPort = Ports.freeLoopbackPort();
        int backupPort = Ports.freeLoopbackPort();
        EmbeddedActiveMQ primary = server(ArtemisHaPair.Role.PRIMARY, dir, primaryPort, backupPort, bufferTimeoutNanos);
        EmbeddedActiveMQ backup = null;
        try {
            primary.start();
            backup = server(ArtemisHaPair.Role.BACKUP, dir, backupPort, primaryPort, bufferTimeoutNanos);
            backup.start();
            ArtemisHaPair.awaitBackupInSync(backup.getActiveMQServer());
        } catch (Exception e) {
            if (backup != null) {
                backup.stop();
            }
            primary.stop();
            throw e;
        }
        return new ArtemisHaBroker(primary, backup, ArtemisHaPair.clientUrl(primaryPort, backupPort));
    }

    private static EmbeddedActiveMQ server(
            ArtemisHaPair.Role role, Path dir, int ownPort, int otherPort, long bufferTimeoutNanos) throws Exception {
        EmbeddedActiveMQ server = new EmbeddedActiveMQ();
        server.setConfiguration(ArtemisHaPair.configuration(
                role,
                dir.resolve(role.name().toLowerCase(java.util.Locale.ROOT)),
                ownPort,
                otherPort,
                bufferTimeoutNanos));
        return server;
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public void close() {
        try {
            cf.close();
            backup.stop();
            primary.stop();
        } catch (Exception e) {
            throw new IllegalStateException("the Artemis pair did not stop cleanly: " + e, e);
        }
    }
}
