package dev.guard.ready.internal;

import dev.guard.ready.ProbeState;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertificateException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/** Maps exceptions seen by any client to a {@link ProbeState}, walking the cause chain. */
public final class Classify {

    private Classify() {}

    /**
     * The state for a throwable from any client, or null when nothing in the chain is
     * recognised (the caller then decides, usually PROTOCOL).
     */
    public static ProbeState generic(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String msg = String.valueOf(c.getMessage());
            String lower = msg.toLowerCase(Locale.ROOT);
            if (c instanceof UnknownHostException || c instanceof UnresolvedAddressException
                    || lower.contains("nodename nor servname") || lower.contains("name or service not known")
                    || lower.contains("temporary failure in name resolution")) {
                return ProbeState.DNS;
            }
            if (c instanceof CertificateException || c instanceof SSLException) {
                return ProbeState.TLS;
            }
            if (c instanceof ConnectException || c instanceof NoRouteToHostException
                    || lower.contains("connection refused")) {
                return ProbeState.REFUSED;
            }
            if (c instanceof SocketTimeoutException || c instanceof TimeoutException
                    || lower.contains("timed out")) {
                return ProbeState.TIMEOUT;
            }
            if (isAuthText(msg)) {
                return ProbeState.AUTH;
            }
        }
        return null;
    }

    /** Broker error texts that mean "credentials rejected". */
    public static boolean isAuthText(String msg) {
        if (msg == null) {
            return false;
        }
        String m = msg.toUpperCase(Locale.ROOT);
        return m.contains("NOAUTH") || m.contains("WRONGPASS") || m.contains("ACCESS_REFUSED")
                || m.contains("AUTHORIZATION VIOLATION") || m.contains("AUTHENTICATION FAILURE")
                || m.contains("INVALID USERNAME-PASSWORD") || m.contains("AUTHENTICATION VIOLATION")
                || m.contains("USER IS NOT AUTHORIZED") || m.contains("NOPERM");
    }

    /** True when any throwable in the chain is an {@link EOFException} or says the peer closed. */
    public static boolean peerClosed(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String lower = String.valueOf(c.getMessage()).toLowerCase(Locale.ROOT);
            if (c instanceof EOFException || lower.contains("connection reset") || lower.contains("closed")) {
                return true;
            }
        }
        return false;
    }
}
