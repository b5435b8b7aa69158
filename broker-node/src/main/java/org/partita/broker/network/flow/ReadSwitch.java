package org.partita.broker.network.flow;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.util.EnumSet;
import java.util.Set;

/**
 * Whether the node reads a connection: it stops (Netty auto-read off) while any reason holds, and
 * reads again once none does. Two parts of flow control pause a connection independently (its sends
 * past the in-flight budget, its frame being read past it); one must not resume what the other holds.
 * Event loop only.
 */
final class ReadSwitch {
    enum Reason {
        SENDS,
        FRAME
    }

    private static final AttributeKey<ReadSwitch> KEY = AttributeKey.valueOf(ReadSwitch.class, "readSwitch");

    private final Channel channel;
    private final Set<Reason> holds = EnumSet.noneOf(Reason.class);

    private ReadSwitch(Channel channel) {
        this.channel = channel;
    }

    static ReadSwitch of(Channel channel) {
        ReadSwitch s = channel.attr(KEY).get();
        if (s == null) {
            s = new ReadSwitch(channel);
            channel.attr(KEY).set(s);
        }
        return s;
    }

    void hold(Reason reason) {
        if (holds.add(reason) && holds.size() == 1) {
            channel.config().setAutoRead(false);
        }
    }

    void release(Reason reason) {
        if (holds.remove(reason) && holds.isEmpty()) {
            channel.config().setAutoRead(true);
        }
    }

    boolean held() {
        return !holds.isEmpty();
    }
}
