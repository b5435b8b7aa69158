package org.partita.samples.mdb;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** What the bean applied: each machine's last event, how many arrived out of order, which instances worked. */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class MachineLedger {
    private final Map<String, Integer> last = new HashMap<>();
    private final Set<String> instances = new HashSet<>();
    private long events;
    private long outOfOrder;

    public synchronized void record(String machine, int sequence, String instance) {
        Integer before = last.put(machine, sequence);
        if (sequence != (before == null ? 0 : before + 1)) {
            outOfOrder++;
        }
        events++;
        instances.add(instance);
    }

    /** {@code events=..}, {@code outOfOrder=..}, {@code machines=..}, {@code instances=..} lines. */
    public synchronized String report() {
        return "events=" + events + "\noutOfOrder=" + outOfOrder + "\nmachines=" + last.size() + "\ninstances="
                + instances.size() + "\n";
    }
}
