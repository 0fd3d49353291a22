package dev.guard.ready.net;

import dev.guard.endpoint.Endpoint;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import dev.guard.ready.internal.Timer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * A TCP connect: READY when something accepts on host:port. Says nothing about the protocol;
 * prefer a protocol probe where one exists.
 */
public final class TcpProbe implements Probe {

    private final Endpoint address;

    TcpProbe(Endpoint address) {
        this.address = address;
    }

    /** @throws IllegalArgumentException empty host or port outside 1..65535 */
    public static TcpProbe of(String host, int port) {
        return new TcpProbe(Endpoint.of(host, port));
    }

    @Override
    public String kind() {
        return "tcp";
    }

    @Override
    public String target() {
        return address.toString();
    }

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        Timer timer = new Timer();
        try {
            ProbeResult failure = connect(this, address, attemptTimeout, timer);
            return failure != null ? failure
                    : ProbeResult.of(this, ProbeState.READY, "accepted a TCP connection", null, timer.elapsed());
        } catch (RuntimeException e) {
            return ProbeResult.of(this, ProbeState.PROTOCOL, "unexpected failure", e, timer.elapsed());
        }
    }

    /**
     * Connects to {@code address} within the timeout; null when it accepted, otherwise the
     * classified failure (DNS, REFUSED, TIMEOUT) reported as {@code probe}'s result. Used by
     * other probes as a quick pre-check.
     */
    public static ProbeResult connect(Probe probe, Endpoint address, Duration timeout, Timer timer) {
        InetAddress ip;
        try {
            ip = InetAddress.getByName(address.host());
        } catch (UnknownHostException e) {
            return ProbeResult.of(probe, ProbeState.DNS, "host '" + address.host() + "' does not resolve", e,
                    timer.elapsed());
        }
        if (timeout.isZero()) {
            timeout = Duration.ofMillis(1);
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(ip, address.port()), (int) Math.max(1, timeout.toMillis()));
            return null;
        } catch (IOException e) {
            ProbeState st = Classify.generic(e);
            if (st == ProbeState.TIMEOUT) {
                return ProbeResult.of(probe, st, "TCP connect to " + address + " got no answer within "
                        + timeout.toMillis() + " ms", e, timer.elapsed());
            }
            if (st == ProbeState.REFUSED || st == null) {
                return ProbeResult.of(probe, ProbeState.REFUSED, "nothing accepts connections on " + address, e,
                        timer.elapsed());
            }
            return ProbeResult.of(probe, st, "", e, timer.elapsed());
        }
    }
}
