package org.partita.ra.inbound;

import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.CountDownLatch;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.client.PartitaXAConnectionFactory;
import org.partita.ra.PartitaConnectionFactoryHandle;
import org.partita.ra.PartitaResourceAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One message-driven bean consuming: a connection to the node, and as many sessions (each with its
 * own bean instance and consumer) as the destination needs. On a partitioned queue that is one per
 * partition, bounded by {@code maxSession}: the node gives each consumer its own partitions, so
 * every partition is served and each key stays in order, one message at a time. When the
 * connection is lost (its node restarts, or no node of its URL accepts a failover) the activation
 * connects again by itself; a connection that failed over to another node of its URL is kept.
 */
public final class EndpointActivation {
    private static final Logger LOG = LoggerFactory.getLogger(EndpointActivation.class);

    private final PartitaResourceAdapter adapter;
    private final MessageEndpointFactory factory;
    private final PartitaActivationSpec spec;
    private final Timer timer;
    /** The container's transaction registry, if it gives one (a failed transacted delivery marks its transaction). */
    private final TransactionSynchronizationRegistry registry;
    /** The server's work manager: the beans run on its threads. */
    private final WorkManager workManager;
    /** Counted down when the activation stops: endpoints waiting after a failed delivery stop waiting. */
    private final CountDownLatch stopping = new CountDownLatch(1);

    private final List<EndpointListener> listeners = new ArrayList<>();
    private Connection connection;
    private boolean stopped;

    public EndpointActivation(
            PartitaResourceAdapter adapter,
            MessageEndpointFactory factory,
            PartitaActivationSpec spec,
            BootstrapContext context)
            throws ResourceException {
        this.adapter = adapter;
        this.factory = factory;
        this.spec = spec;
        try {
            this.timer = context != null ? context.createTimer() : new Timer("partita-ra-reconnect", true);
        } catch (UnavailableException e) {
            throw new ResourceException("no timer for reconnecting: " + e.getMessage(), e);
        }
        this.registry = context != null ? context.getTransactionSynchronizationRegistry() : null;
        this.workManager = context != null ? context.getWorkManager() : null;
    }

    /**
     * Starts consuming on the activation's timer, at once, and returns: a server calls
     * {@code endpointActivation} while it deploys the bean, and may not hand out endpoints (Jakarta
     * Connectors: {@code createEndpoint} throws {@code UnavailableException}, or blocks) until that
     * deployment is over, which it cannot be while this call waits.
     */
    public void startSoon() {
        schedule(0);
    }

    /** Connects and starts consuming; if the node cannot be reached yet, keeps trying in the background. */
    public synchronized void start() {
        try {
            connect();
        } catch (JMSException | ResourceException | NamingException e) {
            LOG.warn(
                    "{}: cannot consume yet ({}); trying again every {} ms",
                    spec,
                    e.getMessage(),
                    spec.getReconnectInterval());
            disconnect();
            retryLater();
        }
    }

    /**
     * Stops consuming: no endpoint takes a new message; a delivery in progress may finish (closing
     * the connection waits up to 30 s for it); everything else the sessions hold, prefetched or
     * handed back by a failed delivery, goes back to the node unacknowledged.
     */
    public void stop() {
        stopping.countDown(); // before the lock: an endpoint pausing after a failure holds up the close below
        synchronized (this) {
            stopped = true;
            timer.cancel();
            Connection c = connection;
            if (c != null) {
                try {
                    c.stop(); // waits for deliveries in progress; what the consumers buffered goes back unflagged
                } catch (JMSException e) {
                    LOG.debug("{}: stopping the connection: {}", spec, e.getMessage());
                }
            }
            disconnect();
        }
    }

    private void connect() throws JMSException, ResourceException, NamingException {
        if (stopped) {
            return;
        }
        boolean transacted;
        try {
            transacted = factory.isDeliveryTransacted(EndpointListener.ON_MESSAGE);
        } catch (NoSuchMethodException e) {
            throw new ResourceException(e);
        }
        String url = url();
        Connection c = openConnection(url, transacted);
        connection = c;
        c.setExceptionListener(e -> connectionLost(c, e));
        Destination destination = destination();
        int sessions = sessionCount(c, destination);
        for (int i = 0; i < sessions; i++) {
            Session s = transacted ? ((XAConnection) c).createXASession() : c.createSession(false, spec.sessionMode());
            DeliveryXAResource xa = transacted ? new DeliveryXAResource(((XASession) s).getXAResource()) : null;
            MessageEndpoint endpoint = factory.createEndpoint(xa);
            EndpointListener listener =
                    new EndpointListener(endpoint, xa, registry, new FailurePause(stopping), workManager);
            listeners.add(listener);
            consumer(s, destination).setMessageListener(listener);
        }
        c.start();
        LOG.info("{}: {} consumers on {} ({}transacted)", spec, sessions, url, transacted ? "" : "not ");
    }

    /**
     * Makes the bean's durable subscription, if it has one, before the server's deployment of the
     * bean goes on: the endpoints start later ({@link #startSoon}), and what is published meanwhile
     * must wait for them in the subscription rather than go to nobody. A node out of reach now gets
     * the subscription when the endpoints connect.
     */
    public void subscribe() {
        if (spec.isQueue() || !spec.durable()) {
            return;
        }
        try (Connection c = openConnection(url(), false)) {
            if (destination() instanceof Topic t) {
                consumer(c.createSession(), t).close(); // closed, not unsubscribed: the subscription stays
            }
        } catch (JMSException | ResourceException | NamingException e) {
            LOG.info("{}: the durable subscription is made once the node is reached ({})", spec, e.getMessage());
        }
    }

    /** The node's URL: the activation's, the adapter's, or that of the connection factory it names. */
    private String url() throws NamingException, ResourceException {
        if (spec.getConnectionFactoryLookup() == null
                || spec.getConnectionFactoryLookup().isBlank()) {
            return spec.effectiveUrl(adapter);
        }
        Object cf = new InitialContext().lookup(spec.getConnectionFactoryLookup());
        if (!(cf instanceof PartitaConnectionFactoryHandle h)) {
            throw new ResourceException("connectionFactoryLookup " + spec.getConnectionFactoryLookup() + " names " + cf
                    + ", not a connection factory of the Partita resource adapter");
        }
        return h.getConnectionUrl();
    }

    /** A connection to the node at {@code url} with the activation's credentials and client id. */
    private Connection openConnection(String url, boolean transacted) throws JMSException {
        String user = blankToNull(spec.effectiveUser(adapter));
        String password = blankToNull(spec.effectivePassword(adapter));
        Connection c = transacted
                ? new PartitaXAConnectionFactory(url).createXAConnection(user, password)
                : new PartitaConnectionFactory(url).createConnection(user, password);
        if (spec.getClientId() != null && !spec.getClientId().isBlank()) {
            try {
                c.setClientID(spec.getClientId());
            } catch (JMSException e) {
                c.close();
                throw e;
            }
        }
        return c;
    }

    /** The destination, with the consumer options Partita reads from the name (appId, priority). */
    private Destination destination() throws NamingException, JMSException {
        String name = spec.getDestination();
        if (spec.getDestinationLookup() != null && !spec.getDestinationLookup().isBlank()) {
            Object d = new InitialContext().lookup(spec.getDestinationLookup());
            if (d instanceof Queue q) {
                name = q.getQueueName();
            } else if (d instanceof Topic t) {
                name = t.getTopicName();
            } else {
                throw new JMSException(
                        "destinationLookup " + spec.getDestinationLookup() + " names " + d + ", not a destination");
            }
        }
        if (!spec.isQueue()) {
            return new org.partita.jms.destination.PartitaTopic(name);
        }
        StringBuilder options = new StringBuilder();
        if (spec.getAppId() != null && !spec.getAppId().isBlank()) {
            options.append("appId=").append(spec.getAppId());
        }
        if (spec.getPriority() != null) {
            options.append(options.length() > 0 ? "&" : "").append("priority=").append(spec.getPriority());
        }
        return new org.partita.jms.destination.PartitaQueue(
                options.length() == 0 ? name : name + (name.indexOf('?') >= 0 ? "&" : "?") + options);
    }

    /**
     * How many endpoint consumers: on a partitioned queue one per partition (or {@code partitions}),
     * bounded by {@code maxSession}; on a plain queue or a shared subscription {@code maxSession};
     * on a topic subscription of its own, one.
     */
    private int sessionCount(Connection c, Destination d) {
        int max = spec.getMaxSession();
        if (d instanceof Topic) {
            return spec.getSubscriptionShared() ? max : 1;
        }
        int partitions = spec.getPartitions() > 0
                ? spec.getPartitions()
                : queuePartitions(c, ((org.partita.jms.destination.PartitaQueue) d));
        return partitions > 1 ? Math.min(partitions, max) : max;
    }

    /** The partition count of the queue on the node; 1 if it cannot be read (the queue does not exist yet). */
    private static int queuePartitions(Connection c, org.partita.jms.destination.PartitaQueue q) {
        String name = q.getQueueName();
        int cut = name.indexOf('?');
        String base = cut < 0 ? name : name.substring(0, cut);
        try {
            Map<String, String> options = PartitaAdmin.on(c).queueOptions(base);
            return Integer.parseInt(options.getOrDefault("partitions", "1"));
        } catch (JMSException | NumberFormatException e) {
            String declared = cut < 0 ? null : optionOf(name.substring(cut + 1), "partitions");
            return declared == null ? 1 : Integer.parseInt(declared);
        }
    }

    private static String optionOf(String query, String key) {
        for (String pair : query.split("&")) {
            if (pair.startsWith(key + "=")) {
                return pair.substring(key.length() + 1);
            }
        }
        return null;
    }

    private MessageConsumer consumer(Session s, Destination d) throws JMSException {
        String selector = spec.getMessageSelector();
        if (d instanceof Topic t) {
            if (spec.durable()) {
                return spec.getSubscriptionShared()
                        ? s.createSharedDurableConsumer(t, spec.getSubscriptionName(), selector)
                        : s.createDurableConsumer(t, spec.getSubscriptionName(), selector, false);
            }
            return spec.getSubscriptionShared()
                    ? s.createSharedConsumer(t, spec.getSubscriptionName(), selector)
                    : s.createConsumer(t, selector);
        }
        return s.createConsumer(d, selector);
    }

    private void connectionLost(Connection lost, JMSException cause) {
        synchronized (this) {
            if (stopped || lost != connection) {
                return;
            }
            if (stillUp(lost)) {
                LOG.warn(
                        "{}: the connection reports '{}' and stays up; the endpoints consume on",
                        spec,
                        cause.getMessage());
                return;
            }
            LOG.warn("{}: connection to the node lost ({}); reconnecting", spec, cause.getMessage());
        }
        // off the client's callback thread: closing waits for the listeners
        timer.schedule(
                new TimerTask() {
                    @Override
                    public void run() {
                        synchronized (EndpointActivation.this) {
                            if (lost == connection) {
                                disconnect();
                                start();
                            }
                        }
                    }
                },
                0);
    }

    /**
     * Whether a connection whose ExceptionListener spoke still works. Not every notice is a loss: a
     * connection whose URL lists several nodes reports a failover (error code PARTITA_FAILOVER)
     * once its sessions and consumers are open again on another node, and any connection reports a
     * request sent without confirmation that its node could not carry out (an acknowledgement it
     * could not pass on to the node holding the message, when that node shuts down) while it stays
     * up. Closing and opening again then would only redeliver what every endpoint holds. A lost
     * connection refuses every call.
     */
    private static boolean stillUp(Connection c) {
        try {
            c.getClientID();
            return true;
        } catch (JMSException e) {
            return false;
        }
    }

    private void retryLater() {
        schedule(spec.getReconnectInterval());
    }

    private synchronized void schedule(long delayMillis) {
        if (stopped) {
            return;
        }
        timer.schedule(
                new TimerTask() {
                    @Override
                    public void run() {
                        start();
                    }
                },
                delayMillis);
    }

    private void disconnect() {
        Connection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (JMSException e) {
                LOG.debug("closing a lost connection: {}", e.getMessage());
            }
        }
        listeners.forEach(EndpointListener::release);
        listeners.clear();
    }

    private static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
