package org.partita.samples.support;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * A plant's gateway, as in the first source document: publishes each machine's state changes to
 * {@code mfg/machine/<id>/state}, keyed by the machine id ({@code JMSXGroupID}, and the property
 * {@code machine} for last value queues) and numbered per machine ({@code seq}) so that a sample
 * can check what its consumers made of them. It knows nothing of queues or consumers. Use it from
 * one thread.
 */
public final class MachineGateway implements AutoCloseable {
    private static final String[] STATES = {"Running", "Stopped", "Running", "Idle"};

    private final JMSContext context;
    private final JMSProducer producer;
    private final List<String> machines;
    private final Map<String, Integer> sent = new LinkedHashMap<>();
    private final AtomicInteger rounds = new AtomicInteger();

    /** Machines {@code m-001} to {@code m-<machineCount>}, publishing with {@code deliveryMode}. */
    public MachineGateway(ConnectionFactory factory, int machineCount, int deliveryMode) {
        context = factory.createContext();
        producer = context.createProducer().setDeliveryMode(deliveryMode);
        machines = IntStream.rangeClosed(1, machineCount)
                .mapToObj(i -> String.format("m-%03d", i))
                .toList();
    }

    /** The state a machine reports with its change {@code seq}. */
    public static String state(int seq) {
        return STATES[seq % STATES.length];
    }

    /** One round: every machine reports its next state change. */
    public void publishRound() {
        for (String machine : machines) {
            int seq = sent.merge(machine, 1, Integer::sum);
            producer.setProperty("JMSXGroupID", machine)
                    .setProperty("machine", machine)
                    .setProperty("seq", seq)
                    .send(context.createTopic("mfg/machine/" + machine + "/state"), state(seq));
        }
        rounds.incrementAndGet();
    }

    /** Rounds published so far (safe to read from any thread). */
    public int rounds() {
        return rounds.get();
    }

    /** The last change published, per machine. */
    public Map<String, Integer> sent() {
        return Map.copyOf(sent);
    }

    public int total() {
        return sent.values().stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public void close() {
        context.close();
    }
}
