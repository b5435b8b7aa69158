package org.partita.broker.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.ClusterConfig;

/** Three members agree on clustered queue definitions through jgroups-raft, also across a restart. */
@Tag("slow")
@Timeout(120)
class ClusterMetadataTest {
    @TempDir
    Path tmp;

    private final List<ClusterMetadata> members = new ArrayList<>();

    /** The members' data folders: a folder of {@link #tmp} for each try at starting them. */
    private Path dir;

    @AfterEach
    void close() {
        members.forEach(ClusterMetadata::close);
    }

    /**
     * Members n1 to n3, {@code listeners} giving each its listener by index, on free ports; started
     * over on new ports and in new folders should a port be taken before its member binds it.
     */
    private ClusterConfig startThree(java.util.function.IntFunction<ClusterMetadata.Listener> listeners)
            throws Exception {
        int[] tries = {0};
        return FreePorts.startOnFreePorts(3, 1000, ports -> {
            dir = tmp.resolve("try" + ++tries[0]);
            ClusterConfig cluster = ClusterConfig.of(
                            "test",
                            List.of(
                                    new ClusterConfig.Member("n1", "127.0.0.1", ports.get(0)),
                                    new ClusterConfig.Member("n2", "127.0.0.1", ports.get(1)),
                                    new ClusterConfig.Member("n3", "127.0.0.1", ports.get(2))))
                    .withHeartbeat(200, 2000);
            try {
                for (int i = 0; i < 3; i++) {
                    String n = "n" + (i + 1);
                    members.add(new ClusterMetadata(cluster, n, dir.resolve(n), listeners.apply(i)));
                }
            } catch (Exception e) {
                members.forEach(ClusterMetadata::close);
                members.clear();
                throw e;
            }
            return cluster;
        });
    }

    @Test
    void aDefinitionMadeOnOneNodeReachesEveryNodeAndSurvivesARestart() throws Exception {
        List<Map<String, String>> seen =
                List.of(new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
        ClusterConfig cluster = startThree(i -> (q, o) -> {
            if (o == null) {
                seen.get(i).remove(q);
            } else {
                seen.get(i).put(q, o);
            }
        });
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            members.get(1).defineQueue("orders", "partitions=6&hosts=n1,n2,n3").get(5, TimeUnit.SECONDS);
            return true;
        });
        for (Map<String, String> s : seen) {
            await().atMost(Duration.ofSeconds(10)).until(() -> "partitions=6&hosts=n1,n2,n3".equals(s.get("orders")));
        }
        members.remove(2).close();
        Map<String, String> again = new ConcurrentHashMap<>();
        members.add(new ClusterMetadata(cluster, "n3", dir.resolve("n3"), again::put));
        await().atMost(Duration.ofSeconds(30)).until(() -> "partitions=6&hosts=n1,n2,n3".equals(again.get("orders")));
        assertEquals("partitions=6&hosts=n1,n2,n3", members.get(2).queue("orders"));
    }

    @Test
    void aRestartedMemberHearsTheStateTheLogLeadsToNotEachStepOnTheWay() throws Exception {
        Map<String, String> onN3 = new ConcurrentHashMap<>();
        ClusterConfig cluster = startThree(i -> i == 2 ? onN3::put : (q, o) -> {});
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            members.get(0).defineQueue("orders", "partitions=4&hosts=n1,n2").get(5, TimeUnit.SECONDS);
            return true;
        });
        members.get(0)
                .layoutChange("orders", "id-1|partitions=8&hosts=n1,n2,n3")
                .get(10, TimeUnit.SECONDS);
        members.get(0).layoutMark("orders", "n1", "id-1|FORWARDED").get(10, TimeUnit.SECONDS);
        members.get(0).defineQueue("orders", "partitions=8&hosts=n1,n2,n3").get(10, TimeUnit.SECONDS);
        members.get(0).layoutChange("orders", null).get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "partitions=8&hosts=n1,n2,n3".equals(onN3.get("orders"))
                        && members.get(2).layoutChange("orders") == null);

        members.remove(2).close();
        List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        members.add(new ClusterMetadata(cluster, "n3", dir.resolve("n3"), new ClusterMetadata.Listener() {
            @Override
            public void queue(String queue, String options) {
                heard.add("queue " + options);
            }

            @Override
            public void layoutChange(String queue, String change) {
                heard.add("change " + change);
            }
        }));
        await().atMost(Duration.ofSeconds(30)).until(() -> heard.contains("queue partitions=8&hosts=n1,n2,n3"));
        assertEquals(
                List.of("queue partitions=8&hosts=n1,n2,n3"), heard, "the older layout is never applied on the way");
    }
}
