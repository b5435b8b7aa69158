package org.partita.broker.core.xa;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a prepared branch will commit, as a store keeps it: each message sent in it (id, encoded
 * payload, the queues that store it) and each stored entry it consumed. Payloads live here, not
 * in the message table, until the branch commits; only stored work is recorded (a non-persistent
 * message is lost with the node, in a branch as anywhere).
 *
 * <p>A branch whose work lives in several stores (the node's own and replica sets' stores) has a
 * record in each, with that store's part of the work, and each names every place holding a part
 * ({@code places}: {@code node:<name>} or {@code set:<name>}), so that whoever completes one part
 * knows where the others are. A branch kept in the node's store alone has no places (layout 1).
 */
record BranchRecord(List<Send> sends, List<Take> taken, long preparedAt, List<String> places) {
    private static final byte VERSION = 1;
    /** Layout 2: layout 1 followed by the places. */
    private static final byte VERSION_WITH_PLACES = 2;

    BranchRecord(List<Send> sends, List<Take> taken, long preparedAt) {
        this(sends, taken, preparedAt, List.of());
    }

    record Send(long messageId, byte[] payload, List<String> queues) {}

    record Take(String queue, long messageId) {}

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(places.isEmpty() ? VERSION : VERSION_WITH_PLACES);
            out.writeLong(preparedAt);
            out.writeInt(sends.size());
            for (Send s : sends) {
                out.writeLong(s.messageId());
                out.writeInt(s.payload().length);
                out.write(s.payload());
                out.writeInt(s.queues().size());
                for (String q : s.queues()) {
                    out.writeUTF(q);
                }
            }
            out.writeInt(taken.size());
            for (Take t : taken) {
                out.writeUTF(t.queue());
                out.writeLong(t.messageId());
            }
            if (!places.isEmpty()) {
                out.writeInt(places.size());
                for (String place : places) {
                    out.writeUTF(place);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    static BranchRecord decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(data))) {
            byte version = in.readByte();
            if (version != VERSION && version != VERSION_WITH_PLACES) {
                throw new IllegalStateException("unknown prepared branch layout " + version);
            }
            long preparedAt = in.readLong();
            int n = in.readInt();
            List<Send> sends = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                long id = in.readLong();
                byte[] payload = new byte[in.readInt()];
                in.readFully(payload);
                int queues = in.readInt();
                List<String> names = new ArrayList<>(queues);
                for (int j = 0; j < queues; j++) {
                    names.add(in.readUTF());
                }
                sends.add(new Send(id, payload, names));
            }
            int m = in.readInt();
            List<Take> taken = new ArrayList<>(m);
            for (int i = 0; i < m; i++) {
                taken.add(new Take(in.readUTF(), in.readLong()));
            }
            List<String> places = new ArrayList<>();
            if (version == VERSION_WITH_PLACES) {
                int k = in.readInt();
                for (int i = 0; i < k; i++) {
                    places.add(in.readUTF());
                }
            }
            return new BranchRecord(sends, taken, preparedAt, List.copyOf(places));
        } catch (IOException e) {
            throw new IllegalStateException("a prepared branch record is damaged: " + e, e);
        }
    }
}
