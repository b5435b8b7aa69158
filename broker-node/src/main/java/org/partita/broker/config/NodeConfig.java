package org.partita.broker.config;

import org.partita.jms.protocol.Protocol;

import java.nio.file.Path;

/**
 * Everything a node is started with. {@link #defaults()} is the embedded default a newcomer gets:
 * 127.0.0.1:61700, H2 under ./data, queues created on first use, every send forced to disk.
 *
 * @param syncOnCommit force each group commit to disk before confirming sends (only turn off when
 *                     losing recent messages on power loss is acceptable)
 */
public record NodeConfig(String nodeName, String host, int port, Path dataDir, boolean autoCreateQueues,
                         boolean syncOnCommit, int maxFrameSize) {

    public static NodeConfig defaults() {
        return new NodeConfig("node1", "127.0.0.1", Protocol.DEFAULT_PORT, Path.of("data"), true, true,
                Protocol.DEFAULT_MAX_FRAME_SIZE);
    }

    public NodeConfig withPort(int p) {
        return new NodeConfig(nodeName, host, p, dataDir, autoCreateQueues, syncOnCommit, maxFrameSize);
    }

    public NodeConfig withHost(String h) {
        return new NodeConfig(nodeName, h, port, dataDir, autoCreateQueues, syncOnCommit, maxFrameSize);
    }

    public NodeConfig withDataDir(Path d) {
        return new NodeConfig(nodeName, host, port, d, autoCreateQueues, syncOnCommit, maxFrameSize);
    }

    public NodeConfig withNodeName(String n) {
        return new NodeConfig(n, host, port, dataDir, autoCreateQueues, syncOnCommit, maxFrameSize);
    }

    public NodeConfig withAutoCreateQueues(boolean b) {
        return new NodeConfig(nodeName, host, port, dataDir, b, syncOnCommit, maxFrameSize);
    }

    public NodeConfig withSyncOnCommit(boolean b) {
        return new NodeConfig(nodeName, host, port, dataDir, autoCreateQueues, b, maxFrameSize);
    }

    public NodeConfig withMaxFrameSize(int m) {
        return new NodeConfig(nodeName, host, port, dataDir, autoCreateQueues, syncOnCommit, m);
    }
}
