package org.partita.samples.startup;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Queue;
import java.time.Duration;
import java.util.Hashtable;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.naming.Context;
import javax.naming.InitialContext;
import org.partita.samples.support.MachineGateway;
import org.partita.samples.support.Sample;
import org.partita.samples.support.SampleNode;
import org.partita.samples.support.SampleQueues;
import org.partita.samples.support.Story;
import org.partita.samples.support.Verdict;
import org.partita.samples.support.Waiting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The first source document's start-up pattern: a service instance that starts while the machines
 * are already running first browses a last value queue for each machine's current state, then
 * binds to its change queue and processes changes from that point. Partita's
 * {@code lastValue=machine} keeps the newest message per machine in one queue.
 */
@Command(
        name = "startup-state",
        description = "Start-up state: a new service instance browses a last value queue for every machine's state, "
                + "then consumes changes")
public final class StartupState extends Sample {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @Option(names = "--machines", defaultValue = "30", description = "Machines publishing (default: ${DEFAULT-VALUE}).")
    int machines;

    @Option(
            names = "--history",
            defaultValue = "5",
            description = "Changes per machine published before the service starts (default: ${DEFAULT-VALUE}).")
    int history;

    public static void main(String[] args) {
        exit(new StartupState(), args);
    }

    @Override
    protected void checkOptions() {
        requireAtLeast("--machines", machines, 1);
        requireAtLeast("--history", history, 1);
    }

    @Override
    protected Verdict run(SampleNode node, Story story) throws Exception {
        Hashtable<String, Object> env = node.jndiEnvironment();
        env.put("queue.machineState", "machine-state");
        env.put("queue.stateChanges", "state-changes");
        Context jndi = new InitialContext(env);
        ConnectionFactory factory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        try (SampleQueues queues = SampleQueues.on(factory);
                // persistent: a publish returns once both queues have stored the change
                MachineGateway gateway = new MachineGateway(factory, machines, DeliveryMode.PERSISTENT)) {
            queues.declare("machine-state", Map.of("lastValue", "machine", "subscriptions", "mfg/machine/>"));
            queues.declare("state-changes", Map.of("subscriptions", "mfg/machine/>"));
            story.say("declared machine-state (lastValue=machine: the newest change of each machine) and state-changes "
                    + "(every change), both subscribed to mfg/machine/>");

            story.part("The service is down; the machines keep reporting");
            for (int i = 0; i < history; i++) {
                gateway.publishRound();
            }
            Map<String, Integer> latestAtStart = gateway.sent();
            story.say(
                    "%d machines published %d changes; machine-state holds %d messages, state-changes %d",
                    machines, gateway.total(), queues.depth("machine-state"), queues.depth("state-changes"));

            story.part("A new instance starts: browse first, then consume");
            try (MachineStateService service = new MachineStateService(factory)) {
                Queue machineState = (Queue) jndi.lookup("machineState");
                int browsed = service.loadCurrentState(machineState);
                Map<String, Integer> knownAfterBrowse = seqs(service.current());
                story.say(
                        "browsed machine-state: %d messages, the current state of %d machines, e.g. %s",
                        browsed, knownAfterBrowse.size(), sample(service.current()));
                service.followChanges((Queue) jndi.lookup("stateChanges"));
                int backlog = gateway.total();
                boolean backlogSeen = Waiting.until(LIMIT, () -> service.alreadyKnown() + service.applied() >= backlog);
                story.say(
                        "consumed the %d changes published while it was down: %d already known from the browse, %d applied",
                        backlog, service.alreadyKnown(), service.applied());

                story.part("Live: the machines report new changes");
                for (int i = 0; i < 3; i++) {
                    gateway.publishRound();
                }
                Map<String, Integer> latest = gateway.sent();
                boolean caughtUp =
                        Waiting.until(LIMIT, () -> seqs(service.current()).equals(latest));
                story.say(
                        "%d new changes published; the service applied %d and now shows e.g. %s",
                        gateway.total() - backlog, service.applied(), sample(service.current()));

                story.part("The last value queue still holds the current state");
                Map<String, MachineStateService.MachineState> browsedAgain;
                try (MachineStateService another = new MachineStateService(factory)) {
                    another.loadCurrentState(machineState);
                    browsedAgain = another.current();
                }
                story.say("a second browse finds %d messages, e.g. %s", browsedAgain.size(), sample(browsedAgain));

                return new Verdict()
                        .check(
                                "one browse gave the newest state of every machine before any change was consumed",
                                browsed == machines && knownAfterBrowse.equals(latestAtStart),
                                browsed + " messages browsed for " + machines + " machines")
                        .check(
                                "the changes published while it was down held nothing newer than the browse",
                                backlogSeen && service.alreadyKnown() == backlog,
                                service.alreadyKnown() + " of " + backlog + " already known")
                        .check(
                                "every live change was applied in order and the service ends on each machine's latest state",
                                caughtUp && service.gaps() == 0 && statesMatch(service.current()),
                                service.applied() + " applied, " + service.gaps() + " gaps")
                        .check(
                                "browsing left the newest state in the last value queue",
                                seqs(browsedAgain).equals(latest),
                                browsedAgain.size() + " messages browsed again");
            }
        } finally {
            jndi.close();
        }
    }

    private static Map<String, Integer> seqs(Map<String, MachineStateService.MachineState> states) {
        return states.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().seq()));
    }

    private static boolean statesMatch(Map<String, MachineStateService.MachineState> states) {
        return states.values().stream().allMatch(s -> s.state().equals(MachineGateway.state(s.seq())));
    }

    private static String sample(Map<String, MachineStateService.MachineState> states) {
        return new TreeMap<>(states)
                .entrySet().stream()
                        .limit(2)
                        .map(e -> e.getKey() + " " + e.getValue().state() + " (change "
                                + e.getValue().seq() + ")")
                        .collect(Collectors.joining(", "));
    }
}
