package dev.guard.endpoint;

import dev.guard.config.internal.Placeholders;
import java.util.List;

/**
 * What a host's spelling alone says about it, the same for the config guard, the probes and
 * diagnose: it may be the service, it is loopback (this machine, or in a container the container
 * itself), or it is a placeholder nobody filled in ({@code None}, {@code changeme},
 * {@code <host>}): what a worker falls back to when its variable is unset or drifted.
 */
public enum HostVerdict {
    /** Nothing in the spelling says it is not the service. */
    SERVICE,
    /** Loopback by {@link Loopback#bySpelling(String)}. */
    LOOPBACK,
    /** A placeholder word ({@code None}, {@code null}, {@code changeme}, {@code your-host}, ...). */
    PLACEHOLDER;

    /** The verdict on one host. */
    public static HostVerdict of(String host) {
        if (host == null || host.isBlank()) {
            return SERVICE;
        }
        if (Loopback.bySpelling(host)) {
            return LOOPBACK;
        }
        return Placeholders.isWord(host) ? PLACEHOLDER : SERVICE;
    }

    /** The worst verdict over every host of an endpoint value ({@code a:9092,localhost:9092}); SERVICE when it does not parse. */
    public static HostVerdict ofValue(String value) {
        List<Endpoint> endpoints;
        try {
            endpoints = Endpoints.parse(value);
        } catch (IllegalArgumentException e) {
            return SERVICE;
        }
        HostVerdict worst = SERVICE;
        for (Endpoint e : endpoints) {
            HostVerdict v = of(e.host());
            if (v.ordinal() > worst.ordinal()) {
                worst = v;
            }
        }
        return worst;
    }
}
