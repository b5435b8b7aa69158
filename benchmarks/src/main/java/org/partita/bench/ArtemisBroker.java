package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.journal.Journal;
import org.apache.activemq.artemis.core.journal.impl.JournalFile;
import org.apache.activemq.artemis.core.journal.impl.JournalImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * An embedded ActiveMQ Artemis: persistence on, NIO file journal in a temporary folder, a Netty
 * acceptor on 127.0.0.1, security off, every other setting left at Artemis's built-in default
 * (journal-sync-persistent and journal-sync-transactional are true by default, so a persistent send
 * returns only once the journal was forced to disk, like Partita).
 *
 * <p>The tuned variant sets only {@code journal-buffer-timeout}, from a disk sync test, the way
 * {@code artemis create} does for a new installation.
 */
final class ArtemisBroker implements ArtemisUnderTest {
    private final EmbeddedActiveMQ server;
    private final Path dir;
    private final ActiveMQConnectionFactory cf;
    private final String url;

    private ArtemisBroker(EmbeddedActiveMQ server, Path dir, int port) {
        this.server = server;
        this.dir = dir;
        this.url = "tcp://127.0.0.1:" + port;
        this.cf = new ActiveMQConnectionFactory(url);
    }

    @Override
    public String url() {
        return url;
    }

    /** @param bufferTimeoutNanos the NIO journal buffer timeout, or a negative number for Artemis's default */
    static ArtemisBroker start(Path dir, long bufferTimeoutNanos) throws Exception {
        int port = Ports.freeLoopbackPort();
        Configuration c = configuration(dir, port, bufferTimeoutNanos);
        EmbeddedActiveMQ server = new EmbeddedActiveMQ();
        server.setConfiguration(c);
        server.start();
        return new ArtemisBroker(server, dir, port);
    }

    static Configuration configuration(Path dir, int port, long bufferTimeoutNanos) throws Exception {
        Configuration c = new ConfigurationImpl()
                .setName("artemis-bench")
                .setPersistenceEnabled(true)
                .setSecurityEnabled(false)
                .setJMXManagementEnabled(false)
                .setJournalType(JournalType.NIO)
                .setJournalDirectory(dir.resolve("journal").toString())
                .setBindingsDirectory(dir.resolve("bindings").toString())
                .setPagingDirectory(dir.resolve("paging").toString())
                .setLargeMessagesDirectory(dir.resolve("large-messages").toString())
                .setNodeManagerLockDirectory(dir.resolve("journal").toString())
                // Artemis blocks every producer once the disk is 90 % full (max-disk-usage); Partita has
                // no such threshold, so on a crowded disk a run would measure the threshold, not the broker
                .setMaxDiskUsage(-1)
                .addAcceptorConfiguration("netty", "tcp://127.0.0.1:" + port);
        if (bufferTimeoutNanos >= 0) {
            c.setJournalBufferTimeout_NIO((int) Math.min(Integer.MAX_VALUE, bufferTimeoutNanos));
        }
        return c;
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    /**
     * Bytes written into the message journal: full data files plus the position in the current one.
     * Journal files are preallocated (10 MiB each), so the folder size would not move.
     */
    @Override
    public long storedBytes() {
        Journal journal = server.getActiveMQServer().getStorageManager().getMessageJournal();
        if (journal instanceof JournalImpl j) {
            long used = (long) j.getDataFilesCount() * j.getFileSize();
            JournalFile current = j.getCurrentFile();
            if (current != null) {
                used += current.getFile().position();
            }
            return used;
        }
        return Files2.sizeOf(dir);
    }

    @Override
    public String storedBytesMethod() {
        return "bytes appended to the message journal (full data files + position in the current file)";
    }

    @Override
    public String storeDetails() {
        return "journal folder " + Files2.sizeOf(dir.resolve("journal")) + " bytes (preallocated files)";
    }

    @Override
    public void close() {
        try {
            cf.close();
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("Artemis did not stop cleanly: " + e, e);
        }
    }
}
