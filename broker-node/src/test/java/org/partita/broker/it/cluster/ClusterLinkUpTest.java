package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.cluster.ClusterStatus;
import org.partita.broker.embed.PartitaNode;

/**
 * A node started before its peers links to each of them as soon as that peer links to it, not at its
 * own next heartbeat: with a heartbeat of 20 s, node1's link to node2 is up within a few seconds of
 * node2's start, although node1's only try so far failed (node2 was not there yet).
 */
@Tag("slow")
@Timeout(120)
class ClusterLinkUpTest {
    private static final long HEARTBEAT_MILLIS = 20_000;

    @TempDir
    Path tmp;

    @Test
    void aNodeStartedFirstLinksBackAsSoonAsItsPeerLinksToIt() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(
                tmp,
                2,
                config -> config.withCluster(config.cluster().withHeartbeat(HEARTBEAT_MILLIS, 3 * HEARTBEAT_MILLIS)))) {
            PartitaNode node1 = c.start(0);
            // its first try, made at its start, finds nobody
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> member(node1, "node2").lastFailure() != null);
            assertEquals("down", member(node1, "node2").state());

            c.start(1);
            // node2 links to node1 at its own start; node1 links back at once, well before its next try
            await().atMost(Duration.ofSeconds(8))
                    .until(() -> "up".equals(member(node1, "node2").state()));
            assertEquals("up", member(c.node(1), "node1").state());
        }
    }

    private static ClusterStatus.Member member(PartitaNode node, String name) {
        return node.cluster().status().members().stream()
                .filter(m -> m.name().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
