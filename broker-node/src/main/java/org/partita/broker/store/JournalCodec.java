package org.partita.broker.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Encodes the message and entry operations of a group into one journal record body, and back.
 * Queue names are written once per journal epoch and referred to by a small number after that,
 * so the five entries of a message published to five subscriptions cost a few bytes each.
 */
final class JournalCodec {
    private static final byte DEFINE_NAME = 1;
    private static final byte INSERT_MESSAGE = 2;
    private static final byte DELETE_MESSAGE = 3;
    private static final byte INSERT_ENTRY = 4;
    private static final byte DELETE_ENTRY = 5;
    private static final byte UPDATE_COUNT = 6;

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
    static int maxSize(StoreOp op) {
        if (op instanceof StoreOp.InsertMessage m) {
            return 1 + 8 + 4 + m.payload().length;
        }
        String queue = queueOf(op);
        // a name definition (1 + 4 + 2 + up to 3 bytes per char) may precede the entry itself
        return (queue == null ? 0 : 7 + queue.length() * 3) + 1 + 4 + 8 + 4;
    }

    void encode(StoreOp op, ByteBuffer out) {
        if (op instanceof StoreOp.InsertMessage m) {
            out.put(INSERT_MESSAGE).putLong(m.messageId()).putInt(m.payload().length).put(m.payload());
        } else if (op instanceof StoreOp.DeleteMessage m) {
            out.put(DELETE_MESSAGE).putLong(m.messageId());
        } else if (op instanceof StoreOp.InsertEntry e) {
            int q = nameId(e.queue(), out);
            out.put(INSERT_ENTRY).putInt(q).putLong(e.messageId()).putInt(e.deliveryCount());
        } else if (op instanceof StoreOp.DeleteEntry e) {
            int q = nameId(e.queue(), out);
            out.put(DELETE_ENTRY).putInt(q).putLong(e.messageId());
        } else if (op instanceof StoreOp.UpdateDeliveryCount u) {
            int q = nameId(u.queue(), out);
            out.put(UPDATE_COUNT).putInt(q).putLong(u.messageId()).putInt(u.deliveryCount());
        } else {
            throw new IllegalArgumentException("not a journaled operation: " + op);
        }
    }

    /** Decodes one record body; a body that does not parse is reported as corrupt, never half-applied. */
    List<StoreOp> decode(ByteBuffer in) {
        List<StoreOp> ops = new ArrayList<>();
        try {
            while (in.hasRemaining()) {
                byte type = in.get();
                switch (type) {
                    case DEFINE_NAME -> {
                        int id = in.getInt();
                        byte[] name = new byte[in.getShort() & 0xFFFF];
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
                    case INSERT_MESSAGE -> {
                        long id = in.getLong();
                        byte[] payload = new byte[in.getInt()];
                        in.get(payload);
                        ops.add(new StoreOp.InsertMessage(id, payload));
                    }
                    case DELETE_MESSAGE -> ops.add(new StoreOp.DeleteMessage(in.getLong()));
                    case INSERT_ENTRY -> ops.add(new StoreOp.InsertEntry(name(in.getInt()), in.getLong(), in.getInt()));
                    case DELETE_ENTRY -> ops.add(new StoreOp.DeleteEntry(name(in.getInt()), in.getLong()));
                    case UPDATE_COUNT -> ops.add(new StoreOp.UpdateDeliveryCount(name(in.getInt()), in.getLong(), in.getInt()));
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
        if (bytes.length > 0xFFFF) {
            throw new IllegalArgumentException("queue name too long for the journal: " + bytes.length + " bytes");
        }
        out.put(DEFINE_NAME).putInt(id).putShort((short) bytes.length).put(bytes);
        idsByName.put(queue, id);
        return id;
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
