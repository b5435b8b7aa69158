package org.partita.samples.priority;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.Hashtable;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.naming.Context;
import javax.naming.InitialContext;
import org.partita.samples.support.Sample;
import org.partita.samples.support.SampleNode;
import org.partita.samples.support.SampleQueues;
import org.partita.samples.support.Story;
import org.partita.samples.support.Verdict;
import org.partita.samples.support.Waiting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The third source document's primary and backup: two instances of a job service attach to the
 * queue {@code jobs}, the primary with priority 10 and the backup with priority 1. Only the
 * primary receives while it is there; when it leaves the backup takes over, and when it comes back
 * it receives again and the backup goes idle.
 */
@Command(
        name = "primary-backup",
        description = "Primary and backup by consumer priority: the backup takes over when the primary leaves "
                + "and gives back when it returns")
public final class PrimaryBackup extends Sample {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final int PRIMARY = 10;
    private static final int BACKUP = 1;

    @Option(
            names = "--jobs",
            defaultValue = "30",
            description = "Jobs sent in each of the three phases (default: ${DEFAULT-VALUE}).")
    int jobsPerPhase;

    public static void main(String[] args) {
        exit(new PrimaryBackup(), args);
    }

    @Override
    protected void checkOptions() {
        requireAtLeast("--jobs", jobsPerPhase, 1);
    }

    @Override
    protected Verdict run(SampleNode node, Story story) throws Exception {
        Hashtable<String, Object> env = node.jndiEnvironment();
        env.put("queue.jobs", "jobs");
        Context jndi = new InitialContext(env);
        ConnectionFactory factory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        Queue jobs = (Queue) jndi.lookup("jobs");
        JobLog log = new JobLog();
        try (SampleQueues queues = SampleQueues.on(factory);
                Connection connection = factory.createConnection()) {
            queues.own("jobs"); // a plain queue, created when first named
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            JobSender sender = new JobSender(session, session.createProducer(jobs));

            story.part("The primary (priority " + PRIMARY + ") and the backup (priority " + BACKUP + ") attach");
            JobWorker primary = new JobWorker("primary", PRIMARY, factory, jobs, log);
            JobWorker backup = new JobWorker("backup", BACKUP, factory, jobs, log);
            Phase first = sendPhase(sender, log, story);

            story.part("The primary's instance shuts down");
            primary.close();
            story.say("primary gone; the backup is now the highest priority present");
            Phase away = sendPhase(sender, log, story);

            story.part("The primary comes back");
            primary = new JobWorker("primary", PRIMARY, factory, jobs, log);
            story.say("primary attached again with priority %d", PRIMARY);
            Phase back = sendPhase(sender, log, story);
            primary.close();
            backup.close();

            return new Verdict()
                    .check(
                            "every job was done",
                            first.complete && away.complete && back.complete && log.jobsDone() == sender.sent,
                            log.jobsDone() + " of " + sender.sent + " jobs done")
                    .check(
                            "a job came twice only when flagged as redelivered",
                            log.unflaggedRepeats() == 0,
                            log.redeliveredRepeats() + " redelivered, " + log.unflaggedRepeats() + " unflagged repeats")
                    .check(
                            "while the primary was there, only the primary received",
                            first.onlyBy("primary", log),
                            first.describe(log))
                    .check("when it left, the backup took over", away.onlyBy("backup", log), away.describe(log))
                    .check(
                            "when it came back, the primary received again and the backup went idle",
                            back.onlyBy("primary", log),
                            back.describe(log));
        } finally {
            jndi.close();
        }
    }

    /** Sends the next jobs as a steady trickle and waits until they are done. */
    private Phase sendPhase(JobSender sender, JobLog log, Story story) throws JMSException, InterruptedException {
        int from = sender.sent + 1;
        for (int i = 0; i < jobsPerPhase; i++) {
            sender.sendNext();
            Thread.sleep(10);
        }
        int to = sender.sent;
        boolean complete =
                Waiting.until(LIMIT, () -> IntStream.rangeClosed(from, to).allMatch(j -> log.doneBy(j) != null));
        Phase phase = new Phase(from, to, complete);
        story.say("sent jobs %d-%d: %s", from, to, phase.describe(log));
        return phase;
    }

    /** Sends jobs numbered 1, 2, ... */
    private static final class JobSender {
        private final Session session;
        private final MessageProducer producer;
        private int sent;

        JobSender(Session session, MessageProducer producer) {
            this.session = session;
            this.producer = producer;
        }

        void sendNext() throws JMSException {
            Message job = session.createTextMessage("job " + (sent + 1));
            job.setIntProperty("job", sent + 1);
            producer.send(job);
            sent++;
        }
    }

    /** The jobs sent during one phase of the story. */
    private record Phase(int from, int to, boolean complete) {
        boolean onlyBy(String worker, JobLog log) {
            return complete && IntStream.rangeClosed(from, to).allMatch(j -> worker.equals(log.doneBy(j)));
        }

        String describe(JobLog log) {
            Map<String, Long> counts = IntStream.rangeClosed(from, to)
                    .mapToObj(j -> log.doneBy(j) == null ? "nobody" : log.doneBy(j))
                    .collect(Collectors.groupingBy(w -> w, TreeMap::new, Collectors.counting()));
            return counts.entrySet().stream()
                    .map(e -> e.getKey() + " did " + e.getValue())
                    .collect(Collectors.joining(", "));
        }
    }
}
