package org.partita.broker.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.partita.broker.store.replica.ReplicaSetFigures;

/**
 * The meters of the replica sets this node is in (queues with {@code replicas} above 1), label
 * {@code set}: whether this node leads each, how often its leadership changed, and, on the leader,
 * how many committed entries each follower has yet to hold (label {@code follower}). Followers come
 * and go as leadership moves, so each {@link #update} registers and removes their meters.
 */
final class ReplicaSetMeters {
    private final Meters meters;
    private final Map<String, SetLevel> sets = new HashMap<>();
    private final Map<String, Lag> lags = new HashMap<>();

    ReplicaSetMeters(Meters meters) {
        this.meters = meters;
    }

    synchronized void update(List<ReplicaSetFigures> figures) {
        Set<String> seenLags = new HashSet<>();
        for (ReplicaSetFigures f : figures) {
            sets.computeIfAbsent(f.set(), SetLevel::new).latest = f;
            f.lagEntries().forEach((follower, entries) -> {
                String key = f.set() + "\u0000" + follower;
                seenLags.add(key);
                lags.computeIfAbsent(key, k -> new Lag(f.set(), follower)).entries = entries;
            });
        }
        lags.entrySet().removeIf(e -> {
            if (seenLags.contains(e.getKey())) {
                return false;
            }
            meters.remove(e.getValue().id);
            return true;
        });
    }

    synchronized void close() {
        sets.values().forEach(s -> s.ids.forEach(meters::remove));
        lags.values().forEach(l -> meters.remove(l.id));
        sets.clear();
        lags.clear();
    }

    private final class SetLevel {
        private final List<Meter.Id> ids = new ArrayList<>();
        private volatile ReplicaSetFigures latest;

        SetLevel(String set) {
            Tags tags = Tags.of("set", set);
            ids.add(meters.gauge(
                    "partita.replica.set.leading",
                    "1 while this node leads the replica set (and serves its partitions), else 0",
                    null,
                    tags,
                    this,
                    s -> s.latest.leading() ? 1 : 0));
            ids.add(meters.counter(
                    "partita.replica.set.leader.changes",
                    "changes of the replica set's leader this node saw since it started",
                    null,
                    tags,
                    this,
                    s -> s.latest.leaderChanges()));
            ids.add(meters.counter(
                    "partita.replica.set.restarts",
                    "times this node restarted its replica of the set because the replica refused every append"
                            + " from its leader after one failed",
                    null,
                    tags,
                    this,
                    s -> s.latest.restarts()));
        }
    }

    private final class Lag {
        private final Meter.Id id;
        private volatile long entries;

        Lag(String set, String follower) {
            id = meters.gauge(
                    "partita.replica.set.follower.lag",
                    "committed log entries the follower has yet to hold (on the set's leader)",
                    "entries",
                    Tags.of("set", set, "follower", follower),
                    this,
                    l -> l.entries);
        }
    }
}
