package org.partita.jms.transport;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.partita.protocol.DestinationName;

/**
 * What a failover connection has opened on its node, so that the next node can be told again: the
 * login (with a client id set later), sessions, declared queues, consumers with the credit the
 * facade granted them and the lost node had not used, and which transactions had work on a node.
 * Thread-safe; its lock is taken after the connection's own, never before.
 */
final class ReplayLog {
    /** A transaction keeps its sends for the next node up to this many bytes; a larger one is not made again. */
    static final long MAX_KEPT_BYTES = 8L << 20;

    private Login login = new Login(null, null, null);
    private final Map<Integer, Session> sessions = new TreeMap<>();
    private final Map<Integer, Consumer> consumers = new TreeMap<>();
    private final Set<String> declared = new LinkedHashSet<>();

    /** A session; for a transacted one, the link its current transaction has work on. */
    static final class Session {
        final int id;
        final boolean transacted;
        /** The epoch (link) the current transaction sent or acknowledged on, -1 for none. */
        long workEpoch = -1;
        /** The current transaction had work on a lost node: its commit must fail. */
        boolean voided;
        /** Epoch whose loss voided it, so a commit that was on its way there settles it. */
        long voidedBy = -1;
        /**
         * The current transaction's sends, in order, as made on a node: made again on the next node if
         * that node is lost before the transaction ends. Null once it cannot be (it acknowledged
         * messages, sent a large body, or grew past {@link #MAX_KEPT_BYTES}).
         */
        List<byte[]> sent = new ArrayList<>();
        /** The bytes of {@link #sent}. */
        long sentBytes;
        /** The epoch (link) the current transaction's commit is on its way to, -1 for none. */
        long commitEpoch = -1;
        /** Its transaction is to be made again on the next node, its sends marked sent again if {@code marked}. */
        boolean makeAgain;

        boolean marked;
        /** The epoch whose loss made the transaction again, -1 for none. */
        long madeAgainAfter = -1;
        /** The answers to the sends made again on the current node, before its commit may go. */
        CompletableFuture<Void> madeAgainSends;

        Session(int id, boolean transacted) {
            this.id = id;
            this.transacted = transacted;
        }
    }

    /** A consumer as its node must be told again. */
    static final class Consumer {
        final BrokerConnection.ConsumerSpec spec;
        /** Credit the facade granted and no delivery has used yet. */
        int credit;
        /** The node answered its open: a later node must open it too. */
        boolean opened;
        /** On a temporary destination of a lost node: no later node can have it. */
        boolean detached;
        /** Its node told it which partitions it owns (they end with the node). */
        boolean ownsPartitions;

        Integer priority;
        Integer capacityMessages;
        Long capacityBytes;

        Consumer(BrokerConnection.ConsumerSpec spec) {
            this.spec = spec;
            this.credit = spec.credit();
        }

        int id() {
            return spec.consumerId();
        }

        boolean temporary() {
            try {
                return DestinationName.parse(spec.destination()).kind().isTemporary();
            } catch (RuntimeException e) {
                return false; // the node refused the name when it was opened; nothing to re-create anyway
            }
        }

        boolean updated() {
            return priority != null || capacityMessages != null || capacityBytes != null;
        }

        /** The spec to open it with now: the credit it has left, or none when {@code withCredit} is false. */
        BrokerConnection.ConsumerSpec spec(boolean withCredit) {
            BrokerConnection.ConsumerSpec s = spec;
            return new BrokerConnection.ConsumerSpec(
                    s.sessionId(),
                    s.consumerId(),
                    s.destination(),
                    s.selector(),
                    s.subscription(),
                    s.flags(),
                    withCredit ? credit : 0,
                    s.windowBytes());
        }
    }

    /** What the next node is told, in the order it must hear it. */
    record Snapshot(Login login, List<SessionOpen> sessions, List<String> declared, List<ConsumerOpen> consumers) {}

    record SessionOpen(int id, boolean transacted) {}

    /** A consumer to open again, without credit (granted when the switch is complete), and its updates. */
    record ConsumerOpen(
            BrokerConnection.ConsumerSpec spec,
            boolean temporary,
            boolean updated,
            Integer priority,
            Integer capacityMessages,
            Long capacityBytes) {
        int id() {
            return spec.consumerId();
        }
    }

    synchronized Login login() {
        return login;
    }

    synchronized void login(Login l) {
        login = l;
    }

    synchronized void clientId(String id) {
        login = login.withClientId(id);
    }

    synchronized void declared(String queue) {
        declared.add(queue);
    }

    synchronized void sessionOpened(int id, boolean transacted) {
        sessions.put(id, new Session(id, transacted));
    }

    /** Forgets the session and its consumers. */
    synchronized void sessionClosed(int id) {
        sessions.remove(id);
        consumers.values().removeIf(c -> c.spec.sessionId() == id);
    }

    synchronized boolean hasSession(int id) {
        return sessions.containsKey(id);
    }

    synchronized boolean transacted(int id) {
        Session s = sessions.get(id);
        return s != null && s.transacted;
    }

    synchronized void consumerOpening(BrokerConnection.ConsumerSpec spec) {
        consumers.put(spec.consumerId(), new Consumer(spec));
    }

    synchronized void consumerOpened(int id) {
        Consumer c = consumers.get(id);
        if (c != null) {
            c.opened = true;
        }
    }

    /** Forgets the consumer (closed, or its open failed); returns what was known of it. */
    synchronized Consumer consumerClosed(int id) {
        return consumers.remove(id);
    }

    synchronized boolean hasConsumer(int id) {
        return consumers.containsKey(id);
    }

    /** The spec with the credit the consumer has now (what the facade granted while its open waited). */
    synchronized BrokerConnection.ConsumerSpec withCreditLeft(BrokerConnection.ConsumerSpec spec) {
        Consumer c = consumers.get(spec.consumerId());
        return c == null ? spec : c.spec(true);
    }

    synchronized boolean detached(int id) {
        Consumer c = consumers.get(id);
        return c != null && c.detached;
    }

    synchronized void detach(int id) {
        Consumer c = consumers.get(id);
        if (c != null) {
            c.detached = true;
        }
    }

    /** Credit the facade granted: counted for the next node even when it cannot be sent now. */
    synchronized void credit(int id, int messages) {
        Consumer c = consumers.get(id);
        if (c != null) {
            c.credit += messages;
        }
    }

    /** Credit the consumer has left, 0 if unknown. */
    synchronized int creditOf(int id) {
        Consumer c = consumers.get(id);
        return c == null ? 0 : c.credit;
    }

    synchronized void drained(int id) {
        Consumer c = consumers.get(id);
        if (c != null) {
            c.credit = 0;
        }
    }

    /**
     * A delivery to the consumer: it used a credit; and a transaction of its session may now consume
     * it, so that transaction is not made again on another node (what it consumed comes back there, and
     * its sends would come twice).
     */
    synchronized void delivered(int id) {
        Consumer c = consumers.get(id);
        if (c == null) {
            return;
        }
        if (c.credit > 0) {
            c.credit--;
        }
        transactionNotRepeatable(c.spec.sessionId());
    }

    synchronized void partitionsTold(int id, boolean owns) {
        Consumer c = consumers.get(id);
        if (c != null) {
            c.ownsPartitions = owns;
        }
    }

    synchronized void updated(int id, Integer priority, Integer capacityMessages, Long capacityBytes) {
        Consumer c = consumers.get(id);
        if (c == null) {
            return;
        }
        if (priority != null) {
            c.priority = priority;
        }
        if (capacityMessages != null) {
            c.capacityMessages = capacityMessages;
        }
        if (capacityBytes != null) {
            c.capacityBytes = capacityBytes;
        }
    }

    /** A transacted session sent or acknowledged on the link of {@code epoch}. */
    synchronized void work(int sessionId, long epoch) {
        Session s = sessions.get(sessionId);
        if (s != null && s.transacted) {
            s.workEpoch = epoch;
        }
    }

    /** A transacted session sent {@code message} in its current transaction. */
    synchronized void transactionSent(int sessionId, byte[] message) {
        Session s = sessions.get(sessionId);
        if (s == null || !s.transacted || s.sent == null) {
            return;
        }
        s.sentBytes += message.length;
        if (s.sentBytes > MAX_KEPT_BYTES) {
            s.sent = null;
        } else {
            s.sent.add(message);
        }
    }

    /** The node refused {@code message} (not lost): the transaction goes on without it, and so would a copy made again. */
    synchronized void transactionSendRefused(int sessionId, byte[] message) {
        Session s = sessions.get(sessionId);
        if (s == null || s.sent == null) {
            return;
        }
        for (int i = s.sent.size() - 1; i >= 0; i--) {
            if (s.sent.get(i) == message) {
                s.sent.remove(i);
                s.sentBytes -= message.length;
                return;
            }
        }
    }

    /** Whether a commit of the session's current transaction was lost with its node: it may have been made there. */
    synchronized boolean commitMayHaveBeenMade(int sessionId) {
        Session s = sessions.get(sessionId);
        return s != null && s.marked;
    }

    /**
     * The session's current transaction cannot be made again on another node: it acknowledged
     * messages (consumed on a node that may be lost; made again, its sends would come twice once those
     * messages come back), or sent a large body (kept on that node only).
     */
    synchronized void transactionNotRepeatable(int sessionId) {
        Session s = sessions.get(sessionId);
        if (s != null && s.transacted) {
            s.sent = null;
        }
    }

    /** The session's commit goes to the link of {@code epoch}. */
    synchronized void commitSent(int sessionId, long epoch) {
        Session s = sessions.get(sessionId);
        if (s != null) {
            s.commitEpoch = epoch;
        }
    }

    /** Whether the loss of {@code epoch} made the session's transaction again on the next node. */
    synchronized boolean madeAgainAfter(int sessionId, long epoch) {
        Session s = sessions.get(sessionId);
        return s != null && s.madeAgainAfter == epoch;
    }

    /** The answers to the sends made again on the node in use, or null when none were. */
    synchronized CompletableFuture<Void> madeAgainSends(int sessionId) {
        Session s = sessions.get(sessionId);
        return s == null ? null : s.madeAgainSends;
    }

    /** A transaction to make again on the next node: its sends in order, marked if its commit was lost. */
    record MadeAgain(int sessionId, List<byte[]> sends, boolean marked) {}

    /**
     * The transactions to make again on the node just reached (each once), and from now on kept for
     * it: what is sent there is added to them.
     */
    synchronized List<MadeAgain> toMakeAgain(long epoch) {
        List<MadeAgain> again = new ArrayList<>();
        for (Session s : sessions.values()) {
            if (!s.makeAgain) {
                continue;
            }
            s.makeAgain = false;
            if (s.sent == null) {
                // it received meanwhile: void after all, its commit fails (in doubt if a commit was lost)
                s.voided = true;
                s.voidedBy = s.madeAgainAfter;
                s.madeAgainAfter = -1;
                continue;
            }
            s.workEpoch = epoch;
            again.add(new MadeAgain(s.id, List.copyOf(s.sent), s.marked));
        }
        return again;
    }

    /** The sends of a transaction made again on the node in use were answered as {@code answers}. */
    synchronized void madeAgain(int sessionId, CompletableFuture<Void> answers) {
        Session s = sessions.get(sessionId);
        if (s != null) {
            s.madeAgainSends = answers;
        }
    }

    /** A transacted session acknowledged deliveries of a lost node: its transaction cannot commit. */
    synchronized void voidIfTransacted(int sessionId) {
        Session s = sessions.get(sessionId);
        if (s != null && s.transacted) {
            s.voided = true;
        }
    }

    synchronized boolean voided(int sessionId) {
        Session s = sessions.get(sessionId);
        return s != null && s.voided;
    }

    /** A commit or rollback ended the session's transaction: it starts clean. */
    synchronized void transactionEnded(int sessionId) {
        Session s = sessions.get(sessionId);
        if (s != null) {
            s.workEpoch = -1;
            s.voided = false;
            s.voidedBy = -1;
            s.sent = new ArrayList<>();
            s.sentBytes = 0;
            s.commitEpoch = -1;
            s.makeAgain = false;
            s.marked = false;
            s.madeAgainAfter = -1;
            s.madeAgainSends = null;
        }
    }

    /**
     * A commit sent on the link of {@code epoch} was answered, or lost with its node: either way the
     * transaction it carried is over, and the loss does not void the next one.
     */
    synchronized void commitSettled(int sessionId, long epoch) {
        Session s = sessions.get(sessionId);
        if (s == null) {
            return;
        }
        if (s.workEpoch == epoch) {
            s.workEpoch = -1;
        }
        if (s.commitEpoch == epoch) {
            s.commitEpoch = -1;
        }
        if (s.voided && s.voidedBy == epoch) {
            s.voided = false;
            s.voidedBy = -1;
        }
    }

    /**
     * The link of {@code epoch} was lost: transactions with work on it are made again on the next node
     * when they can be ({@code makeAgain}, and they only sent: {@link #toMakeAgain}), their sends marked
     * sent again when their commit was on its way there; the others are void. The consumers it had told
     * of partitions own none any more. Returns those consumers.
     */
    synchronized List<Integer> nodeLost(long epoch, boolean makeAgain) {
        for (Session s : sessions.values()) {
            boolean commitLost = s.commitEpoch == epoch;
            if (s.workEpoch != epoch && !commitLost) {
                continue;
            }
            s.workEpoch = -1;
            s.commitEpoch = -1;
            s.madeAgainSends = null;
            if (makeAgain && s.sent != null && !s.sent.isEmpty()) {
                s.makeAgain = true;
                s.marked |=
                        commitLost; // once marked, every later try is too: any of the lost commits may have been made
                s.madeAgainAfter = epoch;
            } else {
                s.voided = true;
                s.voidedBy = epoch;
            }
        }
        List<Integer> owners = new ArrayList<>();
        for (Consumer c : consumers.values()) {
            if (c.ownsPartitions) {
                c.ownsPartitions = false;
                owners.add(c.id());
            }
        }
        return owners;
    }

    /** Sessions by id, declared queues in order, consumers that were opened and can be re-created, by id. */
    synchronized Snapshot snapshot() {
        List<SessionOpen> open = new ArrayList<>();
        for (Session s : sessions.values()) {
            open.add(new SessionOpen(s.id, s.transacted));
        }
        List<ConsumerOpen> attached = new ArrayList<>();
        for (Consumer c : consumers.values()) {
            if (c.opened && !c.detached) {
                attached.add(new ConsumerOpen(
                        c.spec(false), c.temporary(), c.updated(), c.priority, c.capacityMessages, c.capacityBytes));
            }
        }
        return new Snapshot(login, open, List.copyOf(declared), attached);
    }
}
