import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisSentinelPool;

/**
 * A queue worker on Jedis: BLPOP from list "jobs", retrying the connection every second.
 * TOPOLOGY=plain (default): new Jedis(URI); TOPOLOGY=sentinel: JedisSentinelPool(master, sentinels) from
 * URL redis-sentinel://host:port[,host:port...]#master (parsed here, Jedis takes no URL for it);
 * TOPOLOGY=cluster: JedisCluster(HostAndPort) seeded with URL's host and port.
 */
public class JedisWorker {
    static final Logger log = LoggerFactory.getLogger("worker");

    static String env(String k, String d) { String v = System.getenv(k); return v == null || v.isEmpty() ? d : v; }

    static long deadline, jobMs;
    static int max, done;

    interface Pop { List<String> blpop(); }

    /** Takes jobs until the deadline or max; exceptions go to the caller's retry. */
    static void jobs(Pop pop) throws Exception {
        while (System.currentTimeMillis() < deadline && done < max) {
            List<String> r = pop.blpop();
            if (r == null || r.isEmpty()) continue;
            String id = r.get(1);
            log.info("job {} received", id);
            Thread.sleep(jobMs);
            log.info("job {} processed", id);
            done++;
        }
    }

    public static void main(String[] args) throws Exception {
        String url = env("URL", "redis://redis:6379/0");
        String topology = env("TOPOLOGY", "plain");
        deadline = System.currentTimeMillis() + Long.parseLong(env("DEADLINE_S", "10")) * 1000;
        max = Integer.parseInt(env("JOBS", "12"));
        jobMs = Long.parseLong(env("JOB_MS", "50"));
        log.info("worker starting, redis url {}", url);
        int failures = 0; // consecutive failed attempts; a successful connect starts a new count
        JedisSentinelPool pool = null;
        JedisCluster cluster = null;
        while (System.currentTimeMillis() < deadline && done < max) {
            try {
                if (topology.equals("sentinel")) {
                    if (pool == null) {
                        String rest = url.substring(url.indexOf("://") + 3);
                        String master = rest.substring(rest.indexOf('#') + 1);
                        Set<String> sentinels = new LinkedHashSet<>();
                        for (String s : rest.substring(0, rest.indexOf('#')).split(",")) sentinels.add(s);
                        pool = new JedisSentinelPool(master, sentinels);
                    }
                    try (Jedis jedis = pool.getResource()) {
                        jedis.ping();
                        log.info("connected to {}", url);
                        failures = 0;
                        jobs(() -> jedis.blpop(1, "jobs"));
                    }
                } else if (topology.equals("cluster")) {
                    if (cluster == null) {
                        // the constructor reads the slot table from the seed (JedisCluster has no ping in 3.x)
                        URI u = URI.create(url);
                        cluster = new JedisCluster(new HostAndPort(u.getHost(), u.getPort()));
                        log.info("connected to {}", url);
                        failures = 0;
                    }
                    JedisCluster c = cluster;
                    jobs(() -> c.blpop(1, "jobs"));
                } else {
                    try (Jedis jedis = new Jedis(URI.create(url), 2000)) {
                        jedis.ping();
                        log.info("connected to {}", url);
                        failures = 0;
                        jobs(() -> jedis.blpop(1, "jobs"));
                    }
                }
            } catch (Exception e) {
                failures++;
                log.error("attempt {} failed, retrying in 1s", failures, e);
                Thread.sleep(1000);
            }
        }
        log.info("worker stopping after {} jobs", done);
        if (pool != null) pool.close();
        if (cluster != null) cluster.close();
    }
}
