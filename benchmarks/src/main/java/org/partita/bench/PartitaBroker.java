package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.broker.store.StoreFigures;
import org.partita.broker.store.h2.H2MessageStore;
import org.partita.jms.client.PartitaConnectionFactory;

/** An embedded Partita node on a free port, H2 in a temporary folder, every commit forced to disk. */
final class PartitaBroker implements BrokerUnderTest {
    private final PartitaNode node;
    private final Path dir;
    private final ConnectionFactory cf;

    private PartitaBroker(PartitaNode node, Path dir) {
        this.node = node;
        this.dir = dir;
        this.cf = new PartitaConnectionFactory(node.url());
    }

    static PartitaBroker start(Path dir) {
        NodeConfig config = NodeConfig.defaults().withPort(0).withDataDir(dir).withSyncOnCommit(true);
        return new PartitaBroker(PartitaNode.start(config), dir);
    }

    @Override
    public String url() {
        return node.url();
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    @Override
    public String queueName(String base, String partitaOptions) {
        return partitaOptions == null || partitaOptions.isEmpty() ? base : base + "?" + partitaOptions;
    }

    /**
     * Bytes appended to the journal plus the size of everything else in the data folder (the H2
     * file). The journal's files are allocated ahead in 4 MiB steps, so their size would not move with
     * each message: the same reason Artemis's figure counts appended bytes.
     */
    @Override
    public long storedBytes() {
        long journalFiles = 0;
        for (String name : H2MessageStore.JOURNAL_FILES) {
            journalFiles += Files2.sizeOf(dir.resolve(name));
        }
        long appended = node.store() instanceof H2MessageStore h2 ? h2.journalBytesAppended() : 0;
        return Files2.sizeOf(dir) - journalFiles + appended;
    }

    @Override
    public String storedBytesMethod() {
        return "bytes appended to the journal + growth of the H2 file";
    }

    @Override
    public String storeDetails() {
        StoreFigures s = node.store().figures();
        return s.messageRows() + " payload rows, " + s.payloadBytes() + " payload bytes, " + s.entryRows()
                + " entry rows";
    }

    @Override
    public CommitFigures commitFigures() {
        return node.store()
                .counters()
                .map(f -> new CommitFigures(f.groups(), f.groupsByCaller(), f.syncs()))
                .orElse(null);
    }

    StoreFigures storeFigures() {
        return node.store().figures();
    }

    @Override
    public void close() {
        node.close();
    }
}
