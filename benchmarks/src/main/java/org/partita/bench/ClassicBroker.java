package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.store.kahadb.KahaDBPersistenceAdapter;

/**
 * An embedded ActiveMQ Classic: KahaDB in a temporary folder, an OpenWire acceptor on 127.0.0.1, no
 * JMX, every other setting at Classic's default, as a new installation runs it. KahaDB's defaults
 * that matter here, stated rather than relied on: the journal is forced to disk before a persistent
 * send or a commit is answered ({@code enableJournalDiskSyncs=true}, written out below), and a queue's
 * message may be dispatched while its write is under way and not written at all when its consumer
 * acknowledges it first ({@code concurrentStoreAndDispatchQueues=true}), a technique Partita does not
 * use. Classic has no setting tuned to the disk's sync time as Artemis's {@code journal-buffer-timeout}
 * is: KahaDB writes what waits in one batch per sync.
 */
final class ClassicBroker implements BrokerUnderTest {
    private final BrokerService broker;
    private final ActiveMQConnectionFactory cf;
    private final String url;

    private ClassicBroker(BrokerService broker, int port) {
        this.broker = broker;
        this.url = "tcp://127.0.0.1:" + port;
        this.cf = new ActiveMQConnectionFactory(url);
    }

    static ClassicBroker start(Path dir) throws Exception {
        int port = Ports.freeLoopbackPort();
        BrokerService broker = new BrokerService();
        broker.setBrokerName("classic-bench");
        broker.setDataDirectoryFile(dir.toFile());
        broker.setUseJmx(false);
        broker.setPersistent(true);
        broker.setSchedulerSupport(false);
        KahaDBPersistenceAdapter kahaDb = new KahaDBPersistenceAdapter();
        kahaDb.setDirectory(dir.resolve("kahadb").toFile());
        kahaDb.setEnableJournalDiskSyncs(true);
        broker.setPersistenceAdapter(kahaDb);
        broker.addConnector("tcp://127.0.0.1:" + port);
        broker.start();
        if (!broker.waitUntilStarted()) {
            broker.stop();
            throw new IllegalStateException("ActiveMQ Classic did not start in " + dir);
        }
        return new ClassicBroker(broker, port);
    }

    /**
     * The version of Classic's client on the class path: from its own metadata, else (in the tool's
     * shaded jar, whose classes lost their package version) from the Maven properties it ships.
     */
    static String version() {
        String v = org.apache.activemq.ActiveMQConnectionMetaData.PROVIDER_VERSION;
        if (v != null) {
            return v;
        }
        try (java.io.InputStream in = ClassicBroker.class.getResourceAsStream(
                "/META-INF/maven/org.apache.activemq/activemq-client/pom.properties")) {
            if (in != null) {
                java.util.Properties p = new java.util.Properties();
                p.load(in);
                return p.getProperty("version", "(version unknown)");
            }
        } catch (java.io.IOException e) {
            // the version is only for the report's title
        }
        return "(version unknown)";
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    @Override
    public String url() {
        return url;
    }

    /** Classic takes the plain name: its message groups and queues need no options. */
    @Override
    public String queueName(String base, String partitaOptions) {
        return base;
    }

    /** Bytes KahaDB's journal holds (its data files as written, not as preallocated). */
    @Override
    public long storedBytes() {
        try {
            return broker.getPersistenceAdapter().size();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public String storedBytesMethod() {
        return "bytes in KahaDB's journal files (PersistenceAdapter.size)";
    }

    @Override
    public void close() {
        try {
            broker.stop();
            broker.waitUntilStopped();
        } catch (Exception e) {
            throw new IllegalStateException("ActiveMQ Classic did not stop cleanly: " + e, e);
        }
    }
}
