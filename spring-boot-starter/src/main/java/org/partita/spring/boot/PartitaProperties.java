package org.partita.spring.boot;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code spring.partita.*} properties: where the node is and how to connect to it. Each typed
 * property becomes one option of the client's connection URL (README, "Connection factory URL"); an
 * option given twice, by a property and in {@code url} or {@code options}, stops the application at
 * start rather than letting one silently win.
 */
@ConfigurationProperties(prefix = "spring.partita")
public class PartitaProperties {

    /** The client's default node: a node started with no configuration listens here. */
    public static final String DEFAULT_URL = "tcp://127.0.0.1:61700";

    /**
     * Node to connect to, as the client takes it: tcp://host:port, ssl://host:port for TLS, or several
     * nodes tcp://a:61700,tcp://b:61700 to fail over between. URL options may follow after '?'.
     */
    private String url = DEFAULT_URL;

    /** User name of the connections the application opens without credentials of their own. */
    private String user;

    /** Password of that user. */
    private String password;

    /**
     * Client id of every connection the factory opens (the URL option clientID). A node takes one
     * connection per id, so this suits an application that opens one connection; for durable
     * subscriptions of listener containers, Boot's spring.jms.client-id is the usual choice.
     */
    private String clientId;

    /**
     * Messages a consumer may hold before the application takes them (the URL option prefetch). 0: a
     * consumer asks for one message when it receives, so an idle consumer holds none.
     */
    private Integer prefetch;

    /**
     * Bytes a consumer may hold beside its prefetch of messages (the URL option prefetchBytes), e.g.
     * 4MB; large messages then come a few at a time. 0: no byte bound.
     */
    private org.springframework.util.unit.DataSize prefetchBytes;

    /**
     * Time for the TCP connect and the handshake with a node together (the URL option connectTimeout);
     * 0 waits without limit.
     */
    private Duration connectTimeout;

    /**
     * Time after the TCP connect within which the node must answer at all (the URL option
     * greetingTimeout): a node answers the handshake at once, so a port where something else
     * listens in silence fails within it rather than connect-timeout. 0 leaves connect-timeout alone.
     */
    private Duration greetingTimeout;

    /**
     * With several nodes: how long a connection that lost its node keeps trying the others before it
     * fails (the URL option failoverTimeout); 0 tries for ever.
     */
    private Duration failoverTimeout;

    /**
     * Silence from the node after which the client pings it; after twice as long the connection is
     * lost (the URL option heartbeat). 0 turns it off.
     */
    private Duration heartbeat;

    /**
     * Further URL options, by their names in the client URL (maxFrameSize, trustStore,
     * trustStorePassword, keyStore, keyStorePassword, verifyHost), appended to the URL.
     */
    private Map<String, String> options = new LinkedHashMap<>();

    private final Ssl ssl = new Ssl();

    private final Pool pool = new Pool();

    private final Health health = new Health();

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public Integer getPrefetch() {
        return prefetch;
    }

    public void setPrefetch(Integer prefetch) {
        this.prefetch = prefetch;
    }

    public org.springframework.util.unit.DataSize getPrefetchBytes() {
        return prefetchBytes;
    }

    public void setPrefetchBytes(org.springframework.util.unit.DataSize prefetchBytes) {
        this.prefetchBytes = prefetchBytes;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public Duration getGreetingTimeout() {
        return greetingTimeout;
    }

    public void setGreetingTimeout(Duration greetingTimeout) {
        this.greetingTimeout = greetingTimeout;
    }

    public Duration getFailoverTimeout() {
        return failoverTimeout;
    }

    public void setFailoverTimeout(Duration failoverTimeout) {
        this.failoverTimeout = failoverTimeout;
    }

    public Duration getHeartbeat() {
        return heartbeat;
    }

    public void setHeartbeat(Duration heartbeat) {
        this.heartbeat = heartbeat;
    }

    public Map<String, String> getOptions() {
        return options;
    }

    public void setOptions(Map<String, String> options) {
        this.options = options;
    }

    public Ssl getSsl() {
        return ssl;
    }

    public Pool getPool() {
        return pool;
    }

    public Health getHealth() {
        return health;
    }

    /**
     * {@code spring.partita.ssl.*}: how the client speaks TLS to the {@code ssl://} nodes of
     * {@code spring.partita.url} (the URL options trustStore, trustStorePassword, keyStore,
     * keyStorePassword and verifyHost). Whether a node is reached over TLS is its scheme's
     * ({@code ssl://}) business; these say whom the client trusts and what it presents. The material
     * comes from the store files or from a Spring Boot SSL bundle ({@code bundle}), not both.
     */
    public static class Ssl {

        /**
         * Name of a Spring Boot SSL bundle (spring.ssl.bundle.jks.name or spring.ssl.bundle.pem.name)
         * whose trust material says whom the client trusts and whose key material, if it has any, is
         * the certificate the client presents; instead of trust-store and key-store.
         */
        private String bundle;

        /**
         * Trust store of the node certificates (or of the authority that signed them) the client
         * trusts: a file path, or a file: or classpath: location that is a file; PKCS12 or JKS, the
         * type is recognised. Default: the JVM's trusted certificates.
         */
        private String trustStore;

        /** Password of the trust store. */
        private String trustStorePassword;

        /**
         * Key store of the client's certificate and key, for a node that asks clients for one
         * (tls.clientAuth): a file path, or a file: or classpath: location that is a file; PKCS12 or JKS.
         */
        private String keyStore;

        /** Password of the key store and of the key in it. */
        private String keyStorePassword;

        /**
         * Whether the node's certificate must name the host spring.partita.url names. Turn it off only
         * for a test set-up: without it any certificate the trust store trusts is accepted for any host.
         */
        private Boolean verifyHost;

        public String getBundle() {
            return bundle;
        }

        public void setBundle(String bundle) {
            this.bundle = bundle;
        }

        public String getTrustStore() {
            return trustStore;
        }

        public void setTrustStore(String trustStore) {
            this.trustStore = trustStore;
        }

        public String getTrustStorePassword() {
            return trustStorePassword;
        }

        public void setTrustStorePassword(String trustStorePassword) {
            this.trustStorePassword = trustStorePassword;
        }

        public String getKeyStore() {
            return keyStore;
        }

        public void setKeyStore(String keyStore) {
            this.keyStore = keyStore;
        }

        public String getKeyStorePassword() {
            return keyStorePassword;
        }

        public void setKeyStorePassword(String keyStorePassword) {
            this.keyStorePassword = keyStorePassword;
        }

        public Boolean getVerifyHost() {
            return verifyHost;
        }

        public void setVerifyHost(Boolean verifyHost) {
            this.verifyHost = verifyHost;
        }

        boolean isSet() {
            return bundle != null
                    || trustStore != null
                    || trustStorePassword != null
                    || keyStore != null
                    || keyStorePassword != null
                    || verifyHost != null;
        }
    }

    /**
     * {@code spring.partita.health.*}: the {@code partita} health indicator (with Boot's actuator; on
     * unless {@code management.health.partita.enabled=false}).
     */
    public static class Health {

        /**
         * How long the health check waits to connect to a node and finish the handshake (it opens a
         * connection of its own and closes it); with several nodes, per node it tries. Not longer than
         * spring.partita.connect-timeout.
         */
        private Duration timeout = Duration.ofSeconds(3);

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /**
     * {@code spring.partita.pool.*}: a pooled-jms {@code JmsPoolConnectionFactory} in place of Spring's
     * {@code CachingConnectionFactory}; the names and defaults are those of {@code spring.artemis.pool.*}.
     */
    public static class Pool {

        /**
         * Whether to pool connections and sessions with pooled-jms (org.messaginghub:pooled-jms, which the
         * application adds) instead of caching sessions over one connection (spring.jms.cache.*).
         */
        private boolean enabled;

        /** Most connections in the pool. */
        private int maxConnections = 1;

        /** Most sessions pooled per connection. */
        private int maxSessionsPerConnection = 500;

        /** Time a connection stays idle in the pool before it is closed. */
        private Duration idleTimeout = Duration.ofSeconds(30);

        /** Whether asking for a session when the pool is full blocks (else it fails at once). */
        private boolean blockIfFull = true;

        /** How long such a request blocks before it fails; negative: without limit. */
        private Duration blockIfFullTimeout = Duration.ofMillis(-1);

        /** Time between runs of the idle connection check; negative: none runs. */
        private Duration timeBetweenExpirationCheck = Duration.ofMillis(-1);

        /** Whether each pooled session uses one anonymous MessageProducer for every destination. */
        private boolean useAnonymousProducers = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getMaxConnections() {
            return maxConnections;
        }

        public void setMaxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
        }

        public int getMaxSessionsPerConnection() {
            return maxSessionsPerConnection;
        }

        public void setMaxSessionsPerConnection(int maxSessionsPerConnection) {
            this.maxSessionsPerConnection = maxSessionsPerConnection;
        }

        public Duration getIdleTimeout() {
            return idleTimeout;
        }

        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        public boolean isBlockIfFull() {
            return blockIfFull;
        }

        public void setBlockIfFull(boolean blockIfFull) {
            this.blockIfFull = blockIfFull;
        }

        public Duration getBlockIfFullTimeout() {
            return blockIfFullTimeout;
        }

        public void setBlockIfFullTimeout(Duration blockIfFullTimeout) {
            this.blockIfFullTimeout = blockIfFullTimeout;
        }

        public Duration getTimeBetweenExpirationCheck() {
            return timeBetweenExpirationCheck;
        }

        public void setTimeBetweenExpirationCheck(Duration timeBetweenExpirationCheck) {
            this.timeBetweenExpirationCheck = timeBetweenExpirationCheck;
        }

        public boolean isUseAnonymousProducers() {
            return useAnonymousProducers;
        }

        public void setUseAnonymousProducers(boolean useAnonymousProducers) {
            this.useAnonymousProducers = useAnonymousProducers;
        }
    }
}
