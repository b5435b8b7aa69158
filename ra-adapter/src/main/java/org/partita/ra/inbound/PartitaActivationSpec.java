package org.partita.ra.inbound;

import jakarta.jms.Session;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import java.util.ArrayList;
import java.util.List;
import org.partita.ra.PartitaResourceAdapter;

/**
 * How a message-driven bean consumes: the standard Jakarta Messaging activation properties
 * ({@code destination}, {@code destinationType}, {@code destinationLookup},
 * {@code connectionFactoryLookup}, {@code messageSelector}, {@code subscriptionDurability},
 * {@code subscriptionName}, {@code subscriptionShared}, {@code clientId}, {@code acknowledgeMode},
 * {@code maxSession}, {@code user}, {@code password}) and Partita's: {@code appId} (the AppId of a
 * fan-out queue), {@code priority} (consumer priority), {@code partitions} (how many endpoint
 * consumers on a partitioned queue; by default one per partition), {@code connectionUrl} and
 * {@code reconnectInterval} (milliseconds between attempts while the node is unreachable).
 */
public class PartitaActivationSpec implements ActivationSpec, java.io.Serializable {
    private static final long serialVersionUID = 1L;
    static final String QUEUE = "jakarta.jms.Queue";
    static final String TOPIC = "jakarta.jms.Topic";

    private String destination;
    private String destinationType = QUEUE;
    private String destinationLookup;
    private String connectionFactoryLookup;
    private String messageSelector;
    private String subscriptionDurability = "NonDurable";
    private String subscriptionName;
    private boolean subscriptionShared;
    private String clientId;
    private String acknowledgeMode = "Auto-acknowledge";
    private int maxSession = 15;
    private String user;
    private String password;
    private String appId;
    private Integer priority;
    private int partitions;
    private String connectionUrl;
    private long reconnectInterval = 1000;
    private transient ResourceAdapter adapter;

    /** Refuses a spec that cannot work, naming each property that is wrong. */
    @Override
    public void validate() throws InvalidPropertyException {
        List<String> wrong = new ArrayList<>();
        if (isBlank(destination) && isBlank(destinationLookup)) {
            wrong.add("destination or destinationLookup must be set");
        }
        if (!isQueue() && !isTopic()) {
            wrong.add("destinationType must be jakarta.jms.Queue or jakarta.jms.Topic, not '" + destinationType + "'");
        }
        if (!"Durable".equals(subscriptionDurability) && !"NonDurable".equals(subscriptionDurability)) {
            wrong.add("subscriptionDurability must be Durable or NonDurable, not '" + subscriptionDurability + "'");
        }
        if (isTopic() && (durable() || subscriptionShared) && isBlank(subscriptionName)) {
            wrong.add("a durable or shared subscription needs a subscriptionName");
        }
        if (isTopic() && durable() && !subscriptionShared && isBlank(clientId)) {
            wrong.add("an unshared durable subscription needs a clientId");
        }
        if (sessionMode() < 0) {
            wrong.add("acknowledgeMode must be Auto-acknowledge or Dups-ok-acknowledge, not '" + acknowledgeMode + "'");
        }
        if (maxSession < 1) {
            wrong.add("maxSession must be at least 1, not " + maxSession);
        }
        if (partitions < 0) {
            wrong.add("partitions cannot be negative: " + partitions);
        }
        if (reconnectInterval < 1) {
            wrong.add("reconnectInterval must be at least 1 ms");
        }
        if (!wrong.isEmpty()) {
            throw new InvalidPropertyException("Partita activation spec: " + String.join("; ", wrong));
        }
    }

    boolean isQueue() {
        return QUEUE.equals(destinationType) || "javax.jms.Queue".equals(destinationType);
    }

    boolean isTopic() {
        return TOPIC.equals(destinationType) || "javax.jms.Topic".equals(destinationType);
    }

    boolean durable() {
        return "Durable".equals(subscriptionDurability);
    }

    /** The session mode {@code acknowledgeMode} names, or -1. */
    int sessionMode() {
        if (acknowledgeMode == null || acknowledgeMode.equalsIgnoreCase("Auto-acknowledge")) {
            return Session.AUTO_ACKNOWLEDGE;
        }
        if (acknowledgeMode.equalsIgnoreCase("Dups-ok-acknowledge")) {
            return Session.DUPS_OK_ACKNOWLEDGE;
        }
        return -1;
    }

    /** The node: this spec's URL, else the adapter's. */
    public String effectiveUrl(PartitaResourceAdapter ra) {
        return isBlank(connectionUrl) ? ra.effectiveUrl() : connectionUrl.trim();
    }

    public String effectiveUser(PartitaResourceAdapter ra) {
        return user != null ? user : ra.getUserName() == null ? "" : ra.getUserName();
    }

    public String effectivePassword(PartitaResourceAdapter ra) {
        return password != null ? password : ra.getPassword() == null ? "" : ra.getPassword();
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return adapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) {
        this.adapter = ra;
    }

    public String getDestination() {
        return destination;
    }

    public void setDestination(String destination) {
        this.destination = destination;
    }

    public String getDestinationType() {
        return destinationType;
    }

    public void setDestinationType(String destinationType) {
        this.destinationType = destinationType;
    }

    public String getDestinationLookup() {
        return destinationLookup;
    }

    public void setDestinationLookup(String destinationLookup) {
        this.destinationLookup = destinationLookup;
    }

    public String getConnectionFactoryLookup() {
        return connectionFactoryLookup;
    }

    public void setConnectionFactoryLookup(String connectionFactoryLookup) {
        this.connectionFactoryLookup = connectionFactoryLookup;
    }

    public String getMessageSelector() {
        return messageSelector;
    }

    public void setMessageSelector(String messageSelector) {
        this.messageSelector = messageSelector;
    }

    public String getSubscriptionDurability() {
        return subscriptionDurability;
    }

    public void setSubscriptionDurability(String subscriptionDurability) {
        this.subscriptionDurability = subscriptionDurability;
    }

    public String getSubscriptionName() {
        return subscriptionName;
    }

    public void setSubscriptionName(String subscriptionName) {
        this.subscriptionName = subscriptionName;
    }

    public Boolean getSubscriptionShared() {
        return subscriptionShared;
    }

    public void setSubscriptionShared(Boolean subscriptionShared) {
        this.subscriptionShared = subscriptionShared != null && subscriptionShared;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public String getAcknowledgeMode() {
        return acknowledgeMode;
    }

    public void setAcknowledgeMode(String acknowledgeMode) {
        this.acknowledgeMode = acknowledgeMode;
    }

    public Integer getMaxSession() {
        return maxSession;
    }

    public void setMaxSession(Integer maxSession) {
        this.maxSession = maxSession == null ? 15 : maxSession;
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

    public String getAppId() {
        return appId;
    }

    public void setAppId(String appId) {
        this.appId = appId;
    }

    public Integer getPriority() {
        return priority;
    }

    public void setPriority(Integer priority) {
        this.priority = priority;
    }

    public Integer getPartitions() {
        return partitions;
    }

    public void setPartitions(Integer partitions) {
        this.partitions = partitions == null ? 0 : partitions;
    }

    public String getConnectionUrl() {
        return connectionUrl;
    }

    public void setConnectionUrl(String connectionUrl) {
        this.connectionUrl = connectionUrl;
    }

    public Long getReconnectInterval() {
        return reconnectInterval;
    }

    public void setReconnectInterval(Long reconnectInterval) {
        this.reconnectInterval = reconnectInterval == null ? 1000 : reconnectInterval;
    }

    @Override
    public String toString() {
        return "PartitaActivationSpec[" + (destination != null ? destination : destinationLookup) + ", "
                + destinationType + (appId == null ? "" : ", appId " + appId) + ", maxSession " + maxSession + "]";
    }
}
