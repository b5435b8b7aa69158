package org.partita.broker.core;

/** Counts deliveries and tells the rate since the previous reading. Single-threaded (queue executor). */
final class DeliveryRate {
    private long total;
    private long readAt = -1;
    private long readTotal;

    void count() {
        total++;
    }

    long total() {
        return total;
    }

    double perSecond(long now) {
        double rate = 0;
        if (readAt >= 0 && now > readAt) {
            rate = (total - readTotal) * 1000.0 / (now - readAt);
        }
        readAt = now;
        readTotal = total;
        return rate;
    }
}
