package org.partita.broker.store.journal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;

/**
 * Encodes the message, entry and XA branch operations of a group into one journal record body, and back.
 * Queue names are written once per journal epoch and referred to by a small number after that,
 * and numbers are variable-length (7 bits a byte), so the five entries of a message published to
 * five subscriptions cost about six bytes each: the journal stays close to the payload size.
 */
final class JournalCodec {
    private static final byte DEFINE_NAME = 1;
    private static final byte INSERT_MESSAGE = 2;
    private static final byte DELETE_MESSAGE = 3;
    private static final byte INSERT_ENTRY = 4;
    private static final byte DELETE_ENTRY = 5;
    private static final byte UPDATE_COUNT = 6;
    private static final byte SAVE_BRANCH = 7;
    private static final byte DELETE_BRANCH = 8;
    /** A message deletion with its payload's length; {@link #DELETE_MESSAGE} (without it) is still read from older journals. */
    private static final byte DELETE_SIZED_MESSAGE = 9;

    private static final int MAX_VARLONG = 10;

    /** Names already written in this epoch (encoding side) or read (decoding side). */
    private final Map<String, Integer> idsByName = new HashMap<>();

    private final List<String> namesById = new ArrayList<>();

    /** Forgets every name: called when the journal starts a new epoch. */
    void reset() {
        idsByName.clear();
        namesById.clear();
    }

    /** True for the operations the journal carries; queue definitions go to H2 directly. */
    static boolean journaled(StoreOp op) {
        return !(op instanceof StoreOp.SaveQueue || op instanceof StoreOp.DeleteQueue);
    }

    /** An upper bound of the encoded size, to size the buffer before writing. */
    static long maxSize(StoreOp op) {
        if (op instanceof StoreOp.InsertMessage m) {
            return 1L + MAX_VARLONG + MAX_VARLONG + m.payload().length;
        }
        if (op instanceof StoreOp.SaveBranch b) {
            return 1L + 3 * MAX_VARLONG + b.xid().length + b.data().length;
        }
        if (op instanceof StoreOp.DeleteBranch b) {
            return 1L + MAX_VARLONG + b.xid().length;
        }
        String queue = queueOf(op);
        // a name definition (type, id, length, up to 3 bytes per char) may precede the entry itself
        return (queue == null ? 0 : 1 + 2 * MAX_VARLONG + queue.length() * 3) + 1 + 3 * MAX_VARLONG;
    }

    void encode(StoreOp op, ByteBuffer out) {
        if (op instanceof StoreOp.InsertMessage m) {
            out.put(INSERT_MESSAGE);
            putVar(out, m.messageId());
            putVar(out, m.payload().length);
            out.put(m.payload());
        } else if (op instanceof StoreOp.DeleteMessage m) {
            out.put(DELETE_SIZED_MESSAGE);
            putVar(out, m.messageId());
            putVar(out, m.payloadBytes());
        } else if (op instanceof StoreOp.InsertEntry e) {
            int q = nameId(e.queue(), out);
            putVar(out.put(INSERT_ENTRY), q);
            putVar(out, e.messageId());
            putVar(out, e.deliveryCount());
        } else if (op instanceof StoreOp.DeleteEntry e) {
            int q = nameId(e.queue(), out);
            putVar(out.put(DELETE_ENTRY), q);
            putVar(out, e.messageId());
        } else if (op instanceof StoreOp.UpdateDeliveryCount u) {
            int q = nameId(u.queue(), out);
            putVar(out.put(UPDATE_COUNT), q);
            putVar(out, u.messageId());
            putVar(out, u.deliveryCount());
        } else if (op instanceof StoreOp.SaveBranch b) {
            out.put(SAVE_BRANCH);
            putBytes(out, b.xid());
            putVar(out, b.state());
            putBytes(out, b.data());
        } else if (op instanceof StoreOp.DeleteBranch b) {
            out.put(DELETE_BRANCH);
            putBytes(out, b.xid());
        } else {
            throw new IllegalArgumentException("not a journaled operation: " + op);
        }
    }

    /**
     * A length, then the bytes one at a time: queue names, xids and branch data, short and once in a
     * while (only a message's payload goes in bulk). {@code ByteBuffer.put(byte[])} copies arrays of up
     * to 6 bytes in a loop and longer ones in bulk; payloads always take the bulk path, so the compiled
     * encoder carried no loop, and the first short queue name of a new journal epoch ("s1", "orders")
     * or an empty heuristic decision made the JIT throw the hot encoder away and spend ~200 ms of a core
     * compiling it again, under load.
     */
    private static void putBytes(ByteBuffer out, byte[] bytes) {
        putVar(out, bytes.length);
        for (byte b : bytes) {
            out.put(b);
        }
    }

    private static byte[] getBytes(ByteBuffer in) {
        byte[] bytes = new byte[getInt(in)];
        in.get(bytes);
        return bytes;
    }

    /** Decodes one record body; a body that does not parse is reported as corrupt, never half-applied. */
    List<StoreOp> decode(ByteBuffer in) {
        List<StoreOp> ops = new ArrayList<>();
        try {
            while (in.hasRemaining()) {
                byte type = in.get();
                switch (type) {
                    case DEFINE_NAME -> {
                        int id = getInt(in);
                        byte[] name = new byte[getInt(in)];
                        in.get(name);
                        String text = new String(name, StandardCharsets.UTF_8);
                        if (id == namesById.size()) {
                            namesById.add(text);
                        } else if (id < namesById.size()) {
                            namesById.set(id, text); // defined again after a failed append
                        } else {
                            throw new IllegalStateException("name " + id + " out of sequence");
                        }
                    }
                    case INSERT_MESSAGE -> ops.add(new StoreOp.InsertMessage(getVar(in), getBytes(in)));
                    case DELETE_MESSAGE -> ops.add(new StoreOp.DeleteMessage(getVar(in)));
                    case DELETE_SIZED_MESSAGE -> ops.add(new StoreOp.DeleteMessage(getVar(in), getInt(in)));
                    case INSERT_ENTRY -> ops.add(new StoreOp.InsertEntry(name(getInt(in)), getVar(in), getInt(in)));
                    case DELETE_ENTRY -> ops.add(new StoreOp.DeleteEntry(name(getInt(in)), getVar(in)));
                    case UPDATE_COUNT ->
                        ops.add(new StoreOp.UpdateDeliveryCount(name(getInt(in)), getVar(in), getInt(in)));
                    case SAVE_BRANCH -> ops.add(new StoreOp.SaveBranch(getBytes(in), getInt(in), getBytes(in)));
                    case DELETE_BRANCH -> ops.add(new StoreOp.DeleteBranch(getBytes(in)));
                    default -> throw new IllegalStateException("unknown journal operation " + type);
                }
            }
        } catch (RuntimeException e) {
            throw new StoreException("corrupt journal record: " + e.getMessage(), e);
        }
        return ops;
    }

    private String name(int id) {
        if (id < 0 || id >= namesById.size()) {
            throw new IllegalStateException("undefined queue name " + id);
        }
        return namesById.get(id);
    }

    private int nameId(String queue, ByteBuffer out) {
        Integer known = idsByName.get(queue);
        if (known != null) {
            return known;
        }
        int id = idsByName.size();
        byte[] bytes = queue.getBytes(StandardCharsets.UTF_8);
        putVar(out.put(DEFINE_NAME), id);
        putBytes(out, bytes);
        idsByName.put(queue, id);
        return id;
    }

    /** Unsigned variable-length number, 7 bits a byte, low bits first; ids and counts are never negative. */
    private static void putVar(ByteBuffer out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.put((byte) v);
    }

    private static long getVar(ByteBuffer in) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new IllegalStateException("variable-length number too long");
    }

    private static int getInt(ByteBuffer in) {
        long v = getVar(in);
        if (v > Integer.MAX_VALUE) {
            throw new IllegalStateException("number out of range: " + v);
        }
        return (int) v;
    }

    private static String queueOf(StoreOp op) {
        if (op instanceof StoreOp.InsertEntry e) {
            return e.queue();
        } else if (op instanceof StoreOp.DeleteEntry e) {
            return e.queue();
        } else if (op instanceof StoreOp.UpdateDeliveryCount u) {
            return u.queue();
        }
        return null;
    }
}
