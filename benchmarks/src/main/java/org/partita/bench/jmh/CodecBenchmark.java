package org.partita.bench.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import jakarta.jms.JMSException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.partita.jms.message.PartitaBytesMessage;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameCodec;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.WireMessage;

/**
 * The wire codec on a 1 KiB message with a few properties, as the load tool sends it: the message
 * layout ({@link MessageCodec}) and the SEND / DELIVER frames around it ({@link FrameCodec}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {
    private WireMessage message;
    private byte[] encodedMessage;
    private Frame.Send send;
    private ByteBuf frameOut;
    private ByteBuf encodedSendFrame;
    private ByteBuf encodedDeliverFrame;

    @Setup
    public void setup() {
        message = sample();
        encodedMessage = MessageCodec.encode(message);
        send = new Frame.Send(7, 1, encodedMessage);
        frameOut = Unpooled.buffer(encodedMessage.length + 64);
        encodedSendFrame = Unpooled.buffer();
        FrameCodec.encode(send, encodedSendFrame);
        encodedDeliverFrame = Unpooled.buffer();
        FrameCodec.encode(new Frame.Deliver(3, 123_456L, 1, -1, encodedMessage), encodedDeliverFrame);
    }

    static WireMessage sample() {
        byte[] body = new byte[1024];
        new Random(1).nextBytes(body);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("p", 3);
        properties.put("s", 12_345);
        properties.put("JMSXGroupID", "m-042");
        properties.put("region", "emea");
        return new WireMessage(
                "ID:0a1b2c3d-0000-0000-0000-000000000001:1:1:1",
                1_700_000_000_000L,
                null,
                null,
                "queue:orders",
                null,
                WireMessage.PERSISTENT,
                4,
                0L,
                0L,
                properties,
                WireMessage.BODY_BYTES,
                body);
    }

    @Benchmark
    public byte[] encodeMessage() {
        return MessageCodec.encode(message);
    }

    @Benchmark
    public WireMessage decodeMessage() {
        return MessageCodec.decode(encodedMessage);
    }

    /** What a producer does per send: the message layout, then the SEND frame around it. */
    @Benchmark
    public ByteBuf encodeSendFrame() {
        frameOut.clear();
        FrameCodec.encode(new Frame.Send(7, 1, MessageCodec.encode(message)), frameOut);
        return frameOut;
    }

    /**
     * What a producer's thread allocates per send of a new 1 KiB bytes message, as the load tool
     * sends it: the message, its body, the wire view and the encoded layout.
     */
    @Benchmark
    public byte[] newBytesMessageToWire() throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        m.writeBytes(message.body());
        m.setStringProperty("JMSXGroupID", "m-042");
        return MessageCodec.encode(m.toWire());
    }

    /** What the node does per send: decode the frame (it keeps the message bytes opaque). */
    @Benchmark
    public Frame decodeSendFrame() {
        return FrameCodec.decode(encodedSendFrame.readerIndex(0));
    }

    /** What a consumer does per delivery: decode the DELIVER frame, then the message. */
    @Benchmark
    public WireMessage decodeDeliverFrameAndMessage() {
        Frame.Deliver d = (Frame.Deliver) FrameCodec.decode(encodedDeliverFrame.readerIndex(0));
        return MessageCodec.decode(d.message());
    }
}
