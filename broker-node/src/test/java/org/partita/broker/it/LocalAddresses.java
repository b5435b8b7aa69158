package org.partita.broker.it;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

/** This machine's own addresses, for tests of what a node does with connections that do not come from loopback. */
public final class LocalAddresses {
    private LocalAddresses() {}

    /** An IPv4 address of an interface that is up and not loopback, or null when the machine has none. */
    public static InetAddress nonLoopbackIpv4() throws SocketException {
        for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!i.isUp() || i.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(i.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    return a;
                }
            }
        }
        return null;
    }
}
