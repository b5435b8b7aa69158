package org.partita.jms.client;

/** Moves a factory's counts as its connections would, for the starter's tests, which have no node. */
public final class ClientStatisticsAccess {
    private ClientStatisticsAccess() {}

    public static void connectionOpened(ClientStatistics s) {
        s.connectionOpened();
    }

    public static void failedOver(ClientStatistics s) {
        s.failedOver();
    }

    public static void sent(ClientStatistics s) {
        s.sent();
    }

    public static void received(ClientStatistics s) {
        s.received();
    }

    public static void sendFailed(ClientStatistics s) {
        s.sendFailed();
    }
}
