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

    @AfterEach
    void close() {
        members.forEach(ClusterMetadata::close);
    }

    @Test
    void aDefinitionMadeOnOneNodeReachesEveryNodeAndSurvivesARestart() throws Exception {
        List<Integer> ports = FreePorts.pairs(3, 1000);
        List<ClusterConfig.Member> list = List.of(
                new ClusterConfig.Member("n1", "127.0.0.1", ports.get(0)),
                new ClusterConfig.Member("n2", "127.0.0.1", ports.get(1)),
                new ClusterConfig.Member("n3", "127.0.0.1", ports.get(2)));
        ClusterConfig cluster = ClusterConfig.of("test", list).withHeartbeat(200, 2000);
        List<Map<String, String>> seen = new ArrayList<>();
        for (String n : List.of("n1", "n2", "n3")) {
            Map<String, String> s = new ConcurrentHashMap<>();
            seen.add(s);
            members.add(new ClusterMetadata(cluster, n, tmp.resolve(n), (q, o) -> {
                if (o == null) {
                    s.remove(q);
                } else {
                    s.put(q, o);
                }
            }));
        }
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            members.get(1).defineQueue("orders", "partitions=6&hosts=n1,n2,n3").get(5, TimeUnit.SECONDS);
            return true;
        });
        for (Map<String, String> s : seen) {
            await().atMost(Duration.ofSeconds(10)).until(() -> "partitions=6&hosts=n1,n2,n3".equals(s.get("orders")));
        }
        members.remove(2).close();
        Map<String, String> again = new ConcurrentHashMap<>();
        members.add(new ClusterMetadata(cluster, "n3", tmp.resolve("n3"), again::put));
        await().atMost(Duration.ofSeconds(30)).until(() -> "partitions=6&hosts=n1,n2,n3".equals(again.get("orders")));
        assertEquals("partitions=6&hosts=n1,n2,n3", members.get(2).queue("orders"));
    }

    @Test
    void aRestartedMemberHearsTheStateTheLogLeadsToNotEachStepOnTheWay() throws Exception {
        List<Integer> ports = FreePorts.pairs(3, 1000);
        List<ClusterConfig.Member> list = List.of(
                new ClusterConfig.Member("n1", "127.0.0.1", ports.get(0)),
                new ClusterConfig.Member("n2", "127.0.0.1", ports.get(1)),
                new ClusterConfig.Member("n3", "127.0.0.1", ports.get(2)));
        ClusterConfig cluster = ClusterConfig.of("test", list).withHeartbeat(200, 2000);
        Map<String, String> onN3 = new ConcurrentHashMap<>();
        for (String n : List.of("n1", "n2", "n3")) {
            members.add(new ClusterMetadata(cluster, n, tmp.resolve(n), n.equals("n3") ? onN3::put : (q, o) -> {}));
        }
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
        members.add(new ClusterMetadata(cluster, "n3", tmp.resolve("n3"), new ClusterMetadata.Listener() {
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
