package org.partita.broker.cluster;

/** What a {@link FeedPart} needs of its link to the other node: {@link PeerLink}'s, or a test's own. */
interface FeedLink {
    String peer();

    /** The requests over the link's open connection, or null while the link is down. */
    FeedConnection feedConnection();

    int nextId();

    /** Deliveries and partition changes for {@code consumerId} go to {@code receiver} from now on. */
    void register(int consumerId, PeerLink.Receiver receiver);

    void unregister(int consumerId);
}
