package dev.guard.testing;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

/**
 * An address of this machine that is not loopback, for servers that must be reached the way
 * another host reaches them: a Sentinel or a Cluster that announces 127.0.0.1 is only wrong when
 * the client came in by another address.
 */
public final class LocalAddress {

    private LocalAddress() {}

    /**
     * The first IPv4 address of an interface that is up and not loopback ({@code 192.0.2.2} on
     * eth0 of the CI machines). Throws saying how to provide one when the machine has none.
     */
    public static String nonLoopback() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                        return a.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException("could not list this machine's network interfaces: " + e.getMessage(), e);
        }
        throw new IllegalStateException("this machine has no IPv4 address besides loopback; the announce tests reach a "
                + "server by a non-loopback address of this machine. Give it one, e.g. "
                + "`ip link add guard0 type dummy && ip addr add 192.0.2.2/24 dev guard0 && ip link set guard0 up`");
    }
}
