package org.partita.broker.store.replica;

import java.io.IOException;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.raftlog.RaftLogIOException;
import org.apache.ratis.statemachine.StateMachine;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

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
 */
final class LightEntries {
    /** Entries whose data is at most this large are kept whole: reading them back would cost more than they hold. */
    static final int KEPT_WHOLE_BYTES = 64 * 1024;

    /** Set on a context whose entry is held without its data. */
    private static final Object WITHOUT_DATA = new Object();

    private LightEntries() {}

    /** The context Ratis keeps for {@code entry} until it is applied: without the entry's data when it is large. */
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
