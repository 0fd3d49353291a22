package dev.guard.examples.stack;

import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.resolver.DefaultAddressResolverGroup;
import java.time.Duration;

/**
 * A lettuce client that looks its host up again on every reconnect, through the JDK resolver.
 *
 * <p>Lettuce's default, netty's DNS client, caches an address for the TTL the DNS server gave.
 * In a Compose network a container that is restarted gets a new address, so a worker whose
 * Redis was restarted kept reconnecting to the old one ("No route to host" to the dead
 * address) for over a minute, and every command timed out meanwhile (seen in ComposeStackIT's
 * kill run). The JDK resolver keeps an address for {@code networkaddress.cache.ttl}: 30 s by
 * default, which still left the worker on the dead address for half a minute; the stack's mains
 * set it to {@value #DNS_TTL_SECONDS} s ({@link #shortDnsCache}) unless it is set already.
 *
 * <p>Commands time out after {@value #COMMAND_TIMEOUT_SECONDS} s (lettuce: 60 s), and a lost
 * connection is retried at least every 2 s (lettuce: backoff up to 30 s).
 */
final class StackRedis implements AutoCloseable {
  static final int DNS_TTL_SECONDS = 2;
  static final int COMMAND_TIMEOUT_SECONDS = 10;

  /**
   * Sets the JDK's DNS cache to {@value #DNS_TTL_SECONDS} s unless set already. The JDK reads the
   * setting once, at its first lookup: call this first thing in {@code main}.
   */
  static void shortDnsCache() {
    if (java.security.Security.getProperty("networkaddress.cache.ttl") == null
        && System.getProperty("sun.net.inetaddr.ttl") == null) {
      java.security.Security.setProperty("networkaddress.cache.ttl", Integer.toString(DNS_TTL_SECONDS));
    }
  }

  final ClientResources resources;
  final RedisClient client;

  StackRedis(String url) {
    this.resources = DefaultClientResources.builder()
        .addressResolverGroup(DefaultAddressResolverGroup.INSTANCE)
        // reconnect at least every 2 s (lettuce: backoff up to 30 s), so a Redis that is back is
        // found within seconds, not at the next of a few half-minute attempts
        .reconnectDelay(io.lettuce.core.resource.Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(2), 2,
            java.util.concurrent.TimeUnit.MILLISECONDS))
        .build();
    this.client = RedisClient.create(resources, url);
    client.setDefaultTimeout(Duration.ofSeconds(COMMAND_TIMEOUT_SECONDS));
  }

  @Override
  public void close() {
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    resources.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
  }
}
