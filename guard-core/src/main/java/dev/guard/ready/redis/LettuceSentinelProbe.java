package dev.guard.ready.redis;

import dev.guard.endpoint.HostVerdict;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Timer;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * The lettuce-bound half of {@link RedisSentinelProbe}. One attempt asks every sentinel at once
 * for {@code SENTINEL MASTER <name>}, then asks the master they agree on for PING (LOADING with
 * progress), {@code ROLE} and, when set, {@code EXISTS key}.
 */
final class LettuceSentinelProbe implements Probe {

    private final String target;
    private final String masterName;
    private final List<RedisURI> sentinelUris;
    private final RedisURI root;
    private final String requiredKey;
    private final boolean sentinelsLoopback;
    private final LettuceNodes nodes = new LettuceNodes();

    LettuceSentinelProbe(RedisSentinelProbe.Builder b) {
        this.root = RedisURI.create(b.uri);
        this.masterName = root.getSentinelMasterId();
        this.sentinelUris = List.copyOf(root.getSentinels());
        this.target = b.target;
        this.requiredKey = b.requiredKey;
        this.sentinelsLoopback = sentinelUris.stream().allMatch(u -> HostVerdict.of(u.getHost()) == HostVerdict.LOOPBACK);
    }

    @Override
    public String kind() {
        return RedisSentinelProbe.KIND;
    }

    @Override
    public String target() {
        return target;
    }

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        Timer timer = new Timer();
        try {
            return attempt(attemptTimeout, timer);
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.of(this, ProbeState.PROTOCOL, "the probe failed unexpectedly", e, timer.elapsed());
        }
    }

    private ProbeResult attempt(Duration attemptTimeout, Timer timer) {
        nodes.timeout(attemptTimeout);
        List<CompletableFuture<Map<String, String>>> asked = new ArrayList<>();
        for (RedisURI s : sentinelUris) {
            asked.add(nodes.onSentinel(s, c -> c.master(masterName)));
        }
        LettuceNodes.awaitAll(asked, timer.remaining(attemptTimeout));
        List<ProbeResult.Node> found = new ArrayList<>();
        Map<String, String> views = new LinkedHashMap<>();
        Map<String, String> flags = new LinkedHashMap<>();
        List<String> unknownName = new ArrayList<>();
        LettuceSupport.Found firstFailure = null;
        Throwable firstCause = null;
        for (int i = 0; i < sentinelUris.size(); i++) {
            String at = LettuceNodes.key(sentinelUris.get(i));
            LettuceNodes.Reply<Map<String, String>> r = LettuceNodes.Reply.of(asked.get(i));
            if (r.ok() && r.value() != null) {
                String master = address(r.value().get("ip"), r.value().get("port"));
                views.put(at, master);
                flags.put(at, r.value().getOrDefault("flags", ""));
                found.add(new ProbeResult.Node("sentinel", at, ProbeState.READY, "master at " + master
                        + (plainMaster(flags.get(at)) ? "" : ", flags " + flags.get(at))));
            } else if (r.error() != null && LettuceSupport.errorStarting(r.error(), "ERR No such master") != null) {
                unknownName.add(at);
                found.add(new ProbeResult.Node("sentinel", at, ProbeState.MISSING, "monitors no master named '" + masterName + "'"));
            } else {
                LettuceSupport.Found f = r.found(timer.elapsed());
                found.add(new ProbeResult.Node("sentinel", at, f.state(), f.detail()));
                if (firstFailure == null) {
                    firstFailure = f;
                    firstCause = r.error();
                }
            }
        }
        int total = sentinelUris.size();
        if (views.isEmpty()) {
            if (!unknownName.isEmpty()) {
                return result(ProbeState.MISSING, "the sentinels at " + String.join(", ", unknownName)
                        + " monitor no master named '" + masterName + "' (SENTINEL MASTER answered 'No such master'):"
                        + " check the name after '#' against `sentinel monitor <name> ...` in sentinel.conf", null, timer, found);
            }
            return result(firstFailure.state(), "none of the " + total + " sentinels answered: " + found.stream()
                    .map(n -> n.address() + " " + n.state().label()).collect(Collectors.joining(", ")), firstCause, timer, found);
        }
        List<String> distinct = views.values().stream().distinct().toList();
        if (distinct.size() > 1) {
            return result(ProbeState.TOPOLOGY, "the sentinels disagree on the master of '" + masterName + "': "
                    + views.entrySet().stream().map(e -> e.getKey() + " says " + e.getValue()).collect(Collectors.joining(", "))
                    + " (a failover is under way, or a sentinel is cut off from the others)", null, timer, found);
        }
        String master = distinct.get(0);
        String agree = views.size() + " of " + total + " sentinels";
        RedisURI masterUri = masterUri(master);
        if (!sentinelsLoopback && HostVerdict.of(masterUri.getHost()) == HostVerdict.LOOPBACK) {
            found.add(new ProbeResult.Node("master", master, ProbeState.ANNOUNCED, "a loopback address, announced by Sentinel"));
            return result(ProbeState.ANNOUNCED, "the sentinels (reached at " + sentinelUris.stream().map(LettuceNodes::key)
                    .collect(Collectors.joining(",")) + ") announce master '" + masterName + "' at " + master
                    + ", a loopback address: every client on another host would connect to itself. Sentinel announces "
                    + "the address it monitors the master at (sentinel monitor " + masterName + " <address> ...), or after a"
                    + " failover the promoted replica's replica-announce-ip; the URL you gave is right, what Sentinel announces is not",
                    null, timer, found);
        }
        for (Map.Entry<String, String> f : flags.entrySet()) {
            if (!plainMaster(f.getValue())) {
                return result(ProbeState.TOPOLOGY, "sentinel " + f.getKey() + " flags master '" + masterName + "' at " + master
                        + " " + f.getValue() + ": " + meaning(f.getValue()), null, timer, found);
            }
        }
        return checkMaster(masterUri, master, agree, attemptTimeout, timer, found);
    }

    private ProbeResult checkMaster(RedisURI masterUri, String master, String agree, Duration attemptTimeout, Timer timer,
                                    List<ProbeResult.Node> found) {
        CompletableFuture<String> ping = nodes.onData(masterUri, c -> c.ping());
        LettuceNodes.awaitAll(List.of(ping), timer.remaining(attemptTimeout));
        LettuceNodes.Reply<String> pong = LettuceNodes.Reply.of(ping);
        String who = "the master the sentinels announce, " + master + " (" + agree + " agree),";
        if (!pong.ok()) {
            LettuceSupport.Found f = pong.found(timer.elapsed());
            if (f.state() == ProbeState.LOADING) {
                String progress = info(masterUri, attemptTimeout, timer);
                found.add(new ProbeResult.Node("master", master, ProbeState.LOADING, progress));
                return result(ProbeState.LOADING, who + " is loading its dataset: " + progress, pong.error(), timer, found);
            }
            found.add(new ProbeResult.Node("master", master, f.state(), f.detail()));
            String what = switch (f.state()) {
                case REFUSED -> " refuses connections: it is down and not failed over yet, or the address is wrong";
                case TIMEOUT -> " does not answer: " + f.detail();
                case DNS -> " has a host name that does not resolve here";
                case AUTH -> " rejects the password: in a redis-sentinel:// URL the password is the data nodes' (lettuce's rule)";
                default -> " is " + f.state().label() + (f.detail().isEmpty() ? "" : " (" + f.detail() + ")");
            };
            return result(f.state(), who + what, pong.error(), timer, found);
        }
        CompletableFuture<List<Object>> role = nodes.onData(masterUri, c -> c.role());
        CompletableFuture<Long> exists = requiredKey == null ? CompletableFuture.completedFuture(1L)
                : nodes.onData(masterUri, c -> c.exists(requiredKey));
        LettuceNodes.awaitAll(List.of(role, exists), timer.remaining(attemptTimeout));
        LettuceNodes.Reply<List<Object>> roleReply = LettuceNodes.Reply.of(role);
        if (!roleReply.ok()) {
            LettuceSupport.Found f = roleReply.found(timer.elapsed());
            found.add(new ProbeResult.Node("master", master, f.state(), "ROLE: " + f.detail()));
            return result(f.state(), who + " answered PONG but not ROLE: " + f.detail(), roleReply.error(), timer, found);
        }
        List<Object> r = roleReply.value();
        String roleName = r.isEmpty() ? "" : String.valueOf(r.get(0));
        if (!roleName.equals("master")) {
            String of = r.size() >= 3 ? " of " + address(String.valueOf(r.get(1)), String.valueOf(r.get(2))) : "";
            found.add(new ProbeResult.Node("master", master, ProbeState.TOPOLOGY, "ROLE " + roleName + of));
            return result(ProbeState.TOPOLOGY, who + " answers ROLE " + roleName + of + ": the sentinels have not caught up"
                    + " with a failover yet", null, timer, found);
        }
        LettuceNodes.Reply<Long> key = LettuceNodes.Reply.of(exists);
        if (requiredKey != null && (!key.ok() || key.value() == 0)) {
            found.add(new ProbeResult.Node("master", master, ProbeState.MISSING, "key '" + requiredKey + "' does not exist"));
            return result(ProbeState.MISSING, who + " has no key '" + requiredKey + "' yet (EXISTS returned 0)",
                    key.error(), timer, found);
        }
        found.add(new ProbeResult.Node("master", master, ProbeState.READY, "PONG, role master"));
        return result(ProbeState.READY, "master '" + masterName + "' at " + master + " (" + agree + " agree), PONG, role master"
                + (requiredKey == null ? "" : ", key '" + requiredKey + "' exists"), null, timer, found);
    }

    private String info(RedisURI uri, Duration attemptTimeout, Timer timer) {
        CompletableFuture<String> info = nodes.onData(uri, c -> c.info("persistence"));
        LettuceNodes.awaitAll(List.of(info), timer.remaining(attemptTimeout));
        LettuceNodes.Reply<String> r = LettuceNodes.Reply.of(info);
        return r.ok() ? LettuceSupport.loadingDetail(r.value()) : "dataset loading (progress unreadable)";
    }

    private RedisURI masterUri(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
        }
        RedisURI.Builder b = RedisURI.Builder.redis(host, Integer.parseInt(hostPort.substring(colon + 1)))
                .withSsl(root).withDatabase(root.getDatabase());
        if (root.getCredentialsProvider() != null && (root.getPassword() != null || root.getUsername() != null)) {
            b.withAuthentication(root);
        }
        return b.build();
    }

    /** What Sentinel's flags on a master say, for the TOPOLOGY detail. */
    static String meaning(String flags) {
        List<String> f = List.of(flags.split(","));
        if (f.contains("o_down") || f.contains("failover_in_progress")) {
            return "it is objectively down (o_down), a failover is under way";
        }
        if (f.contains("s_down")) {
            return "it does not answer that sentinel (s_down); a failover follows if a quorum agrees";
        }
        if (f.contains("disconnected")) {
            return "that sentinel has no link to it yet (it has just switched to this master, or cannot reach it)";
        }
        return "not a plain master as Sentinel sees it";
    }

    private static boolean plainMaster(String flags) {
        return flags.equals("master");
    }

    private static String address(String host, String port) {
        return (host != null && host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    private ProbeResult result(ProbeState state, String detail, Throwable cause, Timer timer, List<ProbeResult.Node> found) {
        return ProbeResult.of(this, state, detail, cause, timer.elapsed()).withNodes(found);
    }

    @Override
    public void close() {
        nodes.close();
    }

    @Override
    public String toString() {
        return "LettuceSentinelProbe[" + target + "]";
    }
}
