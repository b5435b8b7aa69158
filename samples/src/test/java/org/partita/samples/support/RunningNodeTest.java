package org.partita.samples.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.samples.broadcast.CacheInvalidation;
import org.partita.samples.fanout.OrderFanout;
import org.partita.samples.plantfloor.PlantFloor;
import org.partita.samples.priority.PrimaryBackup;
import org.partita.samples.requestreply.PriceQuotes;
import org.partita.samples.spring.SpringOrders;
import org.partita.samples.startup.StartupState;

/** The samples against a node that was already running (--url), twice each, as a user trying them out would. */
@Tag("slow")
class RunningNodeTest {

    @Test
    @Timeout(240)
    void eachSampleRunsTwiceAgainstTheSameNodeAndLeavesNoQueueBehind(@TempDir Path data) throws JMSException {
        try (PartitaNode node =
                PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(data))) {
            List<Supplier<Sample>> samples = List.of(
                    StartupState::new,
                    PrimaryBackup::new,
                    OrderFanout::new,
                    CacheInvalidation::new,
                    PriceQuotes::new,
                    PlantFloor::new,
                    SpringOrders::new);
            for (Supplier<Sample> sample : samples) {
                for (int round = 0; round < 2; round++) {
                    SampleRun run =
                            SampleRun.of(sample.get(), "--url", node.url()).assertPassed();
                    assertTrue(run.output().contains("using the node at " + node.url()), run.output());
                }
            }
            try (PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
                List<String> left =
                        admin.queues().stream().filter(q -> !q.equals("DLQ")).toList();
                assertEquals(List.of(), left);
            }
        }
    }

    @Test
    @Timeout(60)
    void aNodeThatDoesNotAnswerIsABadOption() {
        SampleRun run = SampleRun.of(new PriceQuotes(), "--url", "tcp://127.0.0.1:1?connectTimeout=2000");
        assertEquals(2, run.exitCode(), run.output());
        assertTrue(run.output().contains("--url tcp://127.0.0.1:1?connectTimeout=2000: "), run.output());
    }
}
