package org.partita.broker.admin;

/**
 * One client connection as admin shows it.
 *
 * @param remote   the client's address, {@code host:port}
 * @param user     the authenticated user, or null
 * @param clientId the JMS client id, or null
 * @param openedAt when the connection was accepted, epoch millis
 * @param bytesIn  bytes received from the client
 * @param bytesOut bytes sent to it
 */
public record ConnectionInfo(
        String remote,
        String user,
        String clientId,
        int sessions,
        int consumers,
        long openedAt,
        long bytesIn,
        long bytesOut) {}
