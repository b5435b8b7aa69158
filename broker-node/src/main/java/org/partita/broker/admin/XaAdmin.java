package org.partita.broker.admin;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.partita.broker.core.xa.InDoubtBranch;
import org.partita.broker.core.xa.XaBranches;
import org.partita.broker.core.xa.XaError;
import org.partita.protocol.WireXid;

/**
 * The admin commands of in-doubt XA branches: list them, and commit, roll back or forget one by
 * hand when its transaction manager is gone for good. Branch ids are written
 * {@code formatId:gtridHex:bqualHex}.
 */
final class XaAdmin {
    static final List<String> COMMANDS = List.of("xa.list", "xa.commit", "xa.rollback", "xa.forget");

    private final XaBranches branches;

    XaAdmin(XaBranches branches) {
        this.branches = branches;
    }

    CompletableFuture<String> run(String command, String argument) {
        try {
            return switch (command) {
                case "xa.list" -> CompletableFuture.completedFuture(list(branches.inDoubt()));
                case "xa.commit" -> done(branches.resolve(xid(argument, command), true), "committed");
                case "xa.rollback" -> done(branches.resolve(xid(argument, command), false), "rolledBack");
                case "xa.forget" -> done(branches.forget(xid(argument, command)), "forgotten");
                default -> throw new IllegalArgumentException("not an XA command: " + command);
            };
        } catch (XaError e) {
            return CompletableFuture.failedFuture(new IllegalStateException(e.getMessage()));
        }
    }

    static String list(List<InDoubtBranch> inDoubt) {
        ReplyLines out = new ReplyLines();
        for (InDoubtBranch b : inDoubt) {
            out.put("branch", b.xid())
                    .put("state", b.state())
                    .put("sent", b.sent())
                    .put("consumed", b.consumed());
            if (b.preparedAt() > 0) {
                out.put("preparedAt", Instant.ofEpochMilli(b.preparedAt()));
            }
            out.put("restored", b.restored());
        }
        return out.toString();
    }

    private static CompletableFuture<String> done(CompletableFuture<Void> f, String outcome) {
        return f.handle((v, t) -> {
            if (t != null) {
                Throwable c = t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                        ? t.getCause()
                        : t;
                throw new IllegalStateException(c.getMessage(), c);
            }
            return outcome + "=true\n";
        });
    }

    private static WireXid xid(String argument, String command) {
        if (argument == null || argument.isBlank()) {
            throw new IllegalArgumentException(
                    command + " needs a branch id, formatId:gtridHex:bqualHex (see xa.list)");
        }
        return WireXid.parse(argument);
    }
}
