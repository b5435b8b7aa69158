package org.partita.bench;

import jakarta.jms.ConnectionFactory;

/**
 * Where the warm-up load goes before a measured run with {@code --own-jvm}, over loopback from the
 * tool's JVM as users' clients reach their broker: the broker under test itself ({@link
 * #itself}), or, for a scenario that measures what the store grows by, a second broker started in
 * the same JVM and stopped and deleted by {@link #close()} ({@link #beside}). Each warm-up round has
 * queues of its own, so the measured run starts on queues the warm-up never touched, and what a
 * round cut short by its time cap left behind is in no later round's way.
 */
final class WarmUpBroker implements BrokerUnderTest {
    private final BrokerUnderTest owner;
    private final String url;
    private final ConnectionFactory cf;
    /** What {@link #close()} does: stop the second broker, or nothing when the load went to the broker under test. */
    private final Runnable onClose;

    private String prefix = "";

    private WarmUpBroker(BrokerUnderTest owner, String url, ConnectionFactory cf, Runnable onClose) {
        this.owner = owner;
        this.url = url;
        this.cf = cf;
        this.onClose = onClose;
    }

    /** The warm-up goes to the broker under test, on queues of its own; it stays up for its run. */
    static WarmUpBroker itself(BrokerUnderTest broker) {
        return new WarmUpBroker(broker, broker.url(), broker.connectionFactory(), () -> {});
    }

    /** The warm-up goes to a second broker in the same JVM, started now at {@code url}. */
    static WarmUpBroker beside(OwnJvmBroker broker, String url, ConnectionFactory cf) {
        return new WarmUpBroker(broker, url, cf, broker::stopWarmUpBroker);
    }

    /** The next warm-up round: queues of its own. */
    WarmUpBroker round(int round) {
        prefix = "warm-up-" + round + "-";
        return this;
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    @Override
    public String url() {
        return url;
    }

    /** Named as the broker under test names them: the naming depends on the target, not on the broker. */
    @Override
    public String queueName(String base, String partitaOptions) {
        return owner.queueName(prefix + base, partitaOptions);
    }

    /** Not measured: the warm-up reads no store figures. */
    @Override
    public long storedBytes() {
        return 0;
    }

    @Override
    public String storedBytesMethod() {
        return "not measured (warm-up)";
    }

    @Override
    public void close() {
        onClose.run();
    }
}
