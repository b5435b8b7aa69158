package org.partita.jms.client;

import static org.awaitility.Awaitility.await;

import jakarta.jms.JMSException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.jms.transport.FailoverBrokerConnection;
import org.partita.jms.transport.InMemoryBrokerConnection;
import org.partita.jms.transport.InMemoryNodes;
import org.partita.jms.transport.NodeAddress;

/**
 * A connection of the JMS facade to three in-memory nodes A, B and C through a
 * {@link FailoverBrokerConnection}, with an ExceptionListener that keeps what it hears.
 */
final class FailoverFixture implements AutoCloseable {
    static final NodeAddress A = InMemoryNodes.node(61700);
    static final NodeAddress B = InMemoryNodes.node(61701);
    static final NodeAddress C = InMemoryNodes.node(61702);
    static final String URL = "tcp://127.0.0.1:61700,tcp://127.0.0.1:61701,tcp://127.0.0.1:61702";

    final InMemoryNodes nodes = new InMemoryNodes();
    final List<JMSException> told = new CopyOnWriteArrayList<>();
    FailoverBrokerConnection transport;
    PartitaConnection connection;

    /** Not connected yet: set nodes up first, then {@link #connect}. */
    FailoverFixture() {}

    FailoverFixture connect(String options) throws JMSException {
        connectQuietly(options);
        connection.setExceptionListener(told::add);
        return this;
    }

    /** Connects without setting the ExceptionListener (which fixes the client id). */
    FailoverFixture connectQuietly(String options) throws JMSException {
        ConnectionOptions o = ConnectionOptions.parse(URL + options);
        transport = new FailoverBrokerConnection(
                o.nodes(), nodes, o.connectTimeoutMillis(), o.failoverTimeoutMillis(), o.sendAgain());
        JmsExceptions.await(transport.open(o.user(), o.password(), o.clientId()));
        connection = new PartitaConnection(transport, o, o.clientId(), Domain.ANY);
        return this;
    }

    static FailoverFixture connected() throws JMSException {
        return new FailoverFixture().connect("");
    }

    /** The connection the client holds to {@code node} (its latest). */
    InMemoryBrokerConnection on(NodeAddress node) {
        return nodes.latest(node);
    }

    /** Takes {@code node} down and waits until the connection has failed over; returns the report. */
    JMSException lose(NodeAddress node) {
        int before = failovers().size();
        nodes.down(node);
        await("the failover report")
                .atMost(Duration.ofSeconds(10))
                .until(() -> failovers().size() > before);
        return failovers().get(before);
    }

    List<JMSException> failovers() {
        return told.stream()
                .filter(e -> PartitaErrorCodes.FAILOVER.equals(e.getErrorCode()))
                .toList();
    }

    @Override
    public void close() throws JMSException {
        if (connection != null) {
            connection.close();
        }
    }
}
