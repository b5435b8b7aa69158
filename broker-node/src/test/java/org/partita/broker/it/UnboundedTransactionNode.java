package org.partita.broker.it;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.partita.broker.config.FlowLimits;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.broker.process.FatalErrors;

/**
 * A node process as {@code NodeMain} runs one (a fatal JVM error halts it with status 3), whose open
 * transactions are not bounded: the heap, not a limit, gives way. A config file cannot ask for that
 * (a budget that does not fit the heap is refused at start), so the limits are set here.
 * Arguments: the data folder.
 */
public final class UnboundedTransactionNode {
    private UnboundedTransactionNode() {}

    public static void main(String[] args) throws Exception {
        FatalErrors.haltOnFatalErrors();
        long unbounded = 100_000_000_000L;
        NodeConfig c = NodeConfig.defaults()
                .withPort(0)
                .withDataDir(Path.of(args[0]))
                .withLimits(
                        FlowLimits.defaults().withTransactionBytes(unbounded).withOpenTransactionBytes(unbounded));
        PartitaNode node = PartitaNode.start(c);
        System.out.println("Partita node " + c.nodeName() + " ready at " + node.url());
        new CountDownLatch(1).await();
    }
}
