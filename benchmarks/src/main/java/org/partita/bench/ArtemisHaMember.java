package org.partita.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

/**
 * One server of an Artemis primary and backup ({@link ArtemisHaPair}) alone in its JVM, so that the
 * failover scenario can kill the primary's process. Arguments: {@code primary} or {@code backup}, data
 * folder, own port, the other server's port, tuned journal buffer timeout in ns. Prints {@code READY
 * <url>} once it serves (the primary) or holds a copy of the primary's journal (the backup); then
 * stops cleanly on {@code stop} or at the end of its stdin, printing {@code STOPPED}.
 */
public final class ArtemisHaMember {
    private ArtemisHaMember() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.activemq", "error");
        ArtemisHaPair.Role role = ArtemisHaPair.Role.valueOf(args[0].toUpperCase(Locale.ROOT));
        int port = Integer.parseInt(args[2]);
        EmbeddedActiveMQ server = new EmbeddedActiveMQ();
        server.setConfiguration(ArtemisHaPair.configuration(
                role, Path.of(args[1]), port, Integer.parseInt(args[3]), Long.parseLong(args[4])));
        server.start();
        if (role == ArtemisHaPair.Role.BACKUP) {
            ArtemisHaPair.awaitBackupInSync(server.getActiveMQServer());
        }
        System.out.println("READY tcp://127.0.0.1:" + port);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null && !line.equals("stop"); ) {
            // nothing else is asked of it
        }
        server.stop();
        System.out.println("STOPPED");
        System.out.flush();
        System.exit(0);
    }
}
