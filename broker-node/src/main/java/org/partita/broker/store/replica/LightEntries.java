package org.partita.broker.store.replica;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.concurrent.ConcurrentMap;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLogIOException;
import org.apache.ratis.statemachine.StateMachine;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.MemoizedSupplier;

/**
 * Keeps large entries that a replica appended and has not applied yet out of the heap.
 *
 * <p>Ratis (3.2) makes a transaction context for every entry a replica appends that it did not
 * write itself, as it appends it, and keeps the context until the entry's apply completes; the
 * context holds the whole entry. A follower catching up (back from a kill behind a backlog of large
 * messages) is sent the log at the network's pace while its store writes them at the disk's, so it
 * held hundreds of entries of 512 KiB in its contexts and ran out of memory in 256 MiB. The log
 * itself keeps them on disk (and in a bounded cache of its files). So the context of a large entry
 * holds the entry without its data, and the apply reads the entry back from the log.
 *
 * <p>That alone was not enough: Ratis keeps the context in its transaction manager behind the
 * memoizing supplier that made it, and the supplier keeps its initializer, a lambda that captured the
 * whole entry, until the entry is applied. A heap dump of a replica of 256 MiB catching up showed
 * 125 MB of entries held that way. So once the light context is made, the supplier that Ratis keeps
 * for the entry is replaced by one that holds the light context alone ({@link #forgetWholeEntry}).
 * Ratis has no public way to reach that map: this reads two private fields, and does nothing once a
 * Ratis version no longer has them. No test of the build fails without it (the backlog that shows it,
 * 1,200 messages of 512 KiB behind a replica of 256 MiB, takes too long for the build): whoever
 * upgrades Ratis should take a heap dump of such a replica coming back (docs/cluster.md).
 */
final class LightEntries {
    /** Entries whose data is at most this large are kept whole: reading them back would cost more than they hold. */
    static final int KEPT_WHOLE_BYTES = 64 * 1024;

    /** Set on a context whose entry is held without its data. */
    private static final Object WITHOUT_DATA = new Object();

    private LightEntries() {}

    private static final Field TRANSACTIONS =
            RatisFields.declared("org.apache.ratis.server.impl.RaftServerImpl", "transactionManager");
    private static final Field CONTEXTS =
            RatisFields.declared("org.apache.ratis.server.impl.TransactionManager", "contexts");

    /**
     * The context Ratis keeps for {@code entry} until it is applied: without the entry's data when it is
     * large, and then no longer behind a supplier that holds the whole entry ({@code division} may be null
     * when not known: the supplier stays).
     */
    static TransactionContext context(
            StateMachine machine, LogEntryProto entry, RaftPeerRole role, RaftServer.Division division) {
        TransactionContext context = context(machine, entry, role);
        if (context.getStateMachineContext() == WITHOUT_DATA && division != null) {
            forgetWholeEntry(division, TermIndex.valueOf(entry), context);
        }
        return context;
    }

    /**
     * Replaces the supplier {@code division}'s transaction manager keeps for the entry at {@code at} (the
     * one whose initializer is running now, and captured the whole entry) by one that holds {@code light}.
     * Ratis calls this machine's {@code startTransaction} from that supplier, after it put the supplier in
     * its map; both suppliers give the same context.
     */
    @SuppressWarnings("unchecked")
    private static void forgetWholeEntry(RaftServer.Division division, TermIndex at, TransactionContext light) {
        if (TRANSACTIONS == null
                || CONTEXTS == null
                || !TRANSACTIONS.getDeclaringClass().isInstance(division)) {
            return;
        }
        try {
            Object manager = TRANSACTIONS.get(division);
            if (!(CONTEXTS.get(manager) instanceof ConcurrentMap<?, ?> map)) {
                return;
            }
            MemoizedSupplier<TransactionContext> held = MemoizedSupplier.valueOf(() -> light);
            held.get();
            ((ConcurrentMap<TermIndex, MemoizedSupplier<TransactionContext>>) map).computeIfPresent(at, (k, v) -> held);
        } catch (IllegalAccessException | ClassCastException e) {
            // a Ratis version laid out otherwise: the whole entry stays held until its apply, as before
        }
    }

    /** The context of {@code entry}: without the entry's data when it is large. */
    static TransactionContext context(StateMachine machine, LogEntryProto entry, RaftPeerRole role) {
        boolean large = entry.getStateMachineLogEntry().getLogData().size() > KEPT_WHOLE_BYTES;
        LogEntryProto held = large
                ? entry.toBuilder()
                        .setStateMachineLogEntry(
                                entry.getStateMachineLogEntry().toBuilder().setLogData(ByteString.EMPTY))
                        .build()
                : entry;
        TransactionContext context = TransactionContext.newBuilder()
                .setStateMachine(machine)
                .setLogEntry(held)
                .setServerRole(role)
                .build();
        if (large) {
            context.setStateMachineContext(WITHOUT_DATA);
        }
        return context;
    }

    /** The whole entry of {@code trx}: read back from this replica's log when its context holds it without its data. */
    static LogEntryProto whole(TransactionContext trx, RaftServer server, RaftGroupId group) throws IOException {
        LogEntryProto entry = trx.getLogEntry();
        if (trx.getStateMachineContext() != WITHOUT_DATA) {
            return entry;
        }
        LogEntryProto read = server.getDivision(group).getRaftLog().get(entry.getIndex());
        if (read == null || read.getTerm() != entry.getTerm()) {
            throw new RaftLogIOException("entry " + entry.getIndex() + " of term " + entry.getTerm()
                    + " is no longer in this replica's log (found " + read + ")");
        }
        return read;
    }
}
