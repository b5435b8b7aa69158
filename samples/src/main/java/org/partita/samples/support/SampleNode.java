package org.partita.samples.support;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.stream.Stream;
import javax.naming.Context;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The node a sample talks to: an embedded one started in a temporary folder (the default), or a
 * running one reached by its URL. Either way the sample sees only a URL and JNDI, as an
 * application would.
 */
public final class SampleNode implements AutoCloseable {
    private final String url;
    private final PartitaNode embedded;
    private final Path dataDir;

    private SampleNode(String url, PartitaNode embedded, Path dataDir) {
        this.url = url;
        this.embedded = embedded;
        this.dataDir = dataDir;
    }

    /** Starts a node in-process on a free loopback port, with its H2 files in a temporary folder. */
    public static SampleNode embedded(Story story) throws IOException {
        Path dir = Files.createTempDirectory("partita-sample");
        PartitaNode node = PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(dir));
        story.say("started an embedded node at %s (data in %s; give --url to use a running node)", node.url(), dir);
        return new SampleNode(node.url(), node, dir);
    }

    /** Uses the node at {@code url}, after checking that it answers. */
    public static SampleNode remote(String url, Story story) throws JMSException {
        try (Connection probe = new PartitaConnectionFactory(url).createConnection()) {
            story.say("using the node at %s", url);
        }
        return new SampleNode(url, null, null);
    }

    public String url() {
        return url;
    }

    /**
     * The JNDI environment an application would put in its {@code jndi.properties}: Partita's
     * context factory and this node's URL (bound as {@code ConnectionFactory}). Samples add their
     * {@code queue.<name>} and {@code connectionFactory.<name>} entries.
     */
    public Hashtable<String, Object> jndiEnvironment() {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.partita.jms.jndi.PartitaInitialContextFactory");
        env.put(Context.PROVIDER_URL, url);
        return env;
    }

    @Override
    public void close() {
        if (embedded == null) {
            return;
        }
        embedded.close();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove the sample's data folder " + dataDir, e);
        }
    }
}
