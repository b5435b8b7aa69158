package org.partita.jms.client;

import jakarta.jms.JMSException;
import jakarta.jms.ResourceAllocationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.partita.jms.message.LargeBody;
import org.partita.jms.transport.BrokerConnection;

/**
 * Moves a large message's body in parts (docs/large-messages.md): up from a stream before its
 * message is sent, down into memory or a temporary file before its message is handed to the
 * application. A few parts are on their way at once, so a body goes at the link's speed while the
 * client holds only those parts of it.
 */
final class LargeBodyTransfer {
    /** Parts on their way at once, either way. */
    static final int PARTS_IN_FLIGHT = 8;
    /** The largest body a message may have: 2 GiB (the node refuses more). */
    static final long MAX_BODY_BYTES = 2L << 30;

    private LargeBodyTransfer() {}

    /**
     * Sends {@code body} to its end as upload {@code uploadId}; returns its length once the node has it
     * on its disk. The stream is read on the caller's thread, and closed.
     */
    static long upload(BrokerConnection transport, int uploadId, InputStream body) throws JMSException {
        int partBytes = transport.bodyPartBytes();
        ArrayDeque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
        long offset = 0;
        try (InputStream in = body) {
            byte[] part = in.readNBytes(partBytes);
            while (true) {
                byte[] next = part.length < partBytes ? new byte[0] : in.readNBytes(partBytes);
                boolean last = next.length == 0;
                if (offset + part.length > MAX_BODY_BYTES) {
                    throw new ResourceAllocationException(
                            "a message body may have at most " + MAX_BODY_BYTES + " bytes; the message was not sent");
                }
                if (inFlight.size() >= PARTS_IN_FLIGHT) {
                    JmsExceptions.await(inFlight.poll());
                }
                inFlight.add(transport.sendBodyPart(uploadId, offset, part, last));
                offset += part.length;
                if (last) {
                    break;
                }
                part = next;
            }
        } catch (IOException e) {
            JMSException j = new JMSException("cannot read the body to send from its stream: " + e.getMessage());
            j.initCause(e);
            throw j;
        }
        while (!inFlight.isEmpty()) {
            JmsExceptions.await(inFlight.poll());
        }
        return offset;
    }

    /**
     * Reads the body of delivery {@code deliveryId}, {@code length} bytes: into memory up to
     * {@code inMemoryBytes}, else into a temporary file.
     */
    static LargeBody download(BrokerConnection transport, long deliveryId, long length, long inMemoryBytes)
            throws JMSException {
        int partBytes = transport.bodyPartBytes(); // the node answers at most 1 MiB a read (LargeBodyFrames)
        try {
            if (length <= inMemoryBytes) {
                byte[] bytes = new byte[(int) length];
                readInto(
                        transport,
                        deliveryId,
                        length,
                        partBytes,
                        (offset, data) -> System.arraycopy(data, 0, bytes, (int) offset, data.length));
                return LargeBody.inMemory(bytes);
            }
            LargeBody.InFile body = LargeBody.newFile(length);
            try (OutputStream out = Files.newOutputStream(body.file())) {
                readInto(transport, deliveryId, length, partBytes, (offset, data) -> out.write(data));
            }
            return body;
        } catch (IOException e) {
            JMSException j = new JMSException("cannot keep the large body received: " + e.getMessage());
            j.initCause(e);
            throw j;
        }
    }

    @FunctionalInterface
    private interface PartSink {
        void take(long offset, byte[] data) throws IOException;
    }

    /** Reads the body in order, {@link #PARTS_IN_FLIGHT} reads asked ahead. */
    private static void readInto(BrokerConnection transport, long deliveryId, long length, int partBytes, PartSink sink)
            throws JMSException, IOException {
        ArrayDeque<CompletableFuture<byte[]>> asked = new ArrayDeque<>();
        long askedTo = 0;
        long received = 0;
        while (received < length) {
            while (asked.size() < PARTS_IN_FLIGHT && askedTo < length) {
                int n = (int) Math.min(partBytes, length - askedTo);
                asked.add(transport.readBody(deliveryId, askedTo, n));
                askedTo += n;
            }
            byte[] data = JmsExceptions.await(asked.poll());
            long expected = Math.min(partBytes, length - received);
            if (data.length != expected) {
                throw new IOException("the node answered " + data.length + " bytes of the body at " + received + " of "
                        + length + ", not " + expected);
            }
            sink.take(received, data);
            received += data.length;
        }
    }
}
