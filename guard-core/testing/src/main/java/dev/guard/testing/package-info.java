/**
 * Real-service test fixtures shared by every module (guard-core's test-jar): private Redis
 * (including one that really answers {@code -LOADING}), NATS and Kafka servers as child
 * processes on free ports, a switchable TCP proxy for refuse / black-hole faults, and
 * checks for the machine's shared Redis, RabbitMQ and NATS.
 *
 * <pre>{@code
 * @ExtendWith(NoLeakedProcesses.class)            // fails the class if a server outlives it
 * class MyTest {
 *     @Test void waitsOutLoading() {
 *         try (RedisServer redis = RedisServer.builder().password("pw").build().startLoading();
 *              TcpProxy proxy = TcpProxy.forward(redis.host(), redis.port())) {
 *             assertTrue(redis.isLoading());          // -LOADING seen, not slept for
 *             Instant loaded = redis.awaitLoaded(Duration.ofSeconds(30));
 *             proxy.mode(TcpProxy.Mode.BLACKHOLE);    // clients now hang until their own timeout
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Every server is {@link java.lang.AutoCloseable} (close kills it and deletes its dir);
 * a JVM shutdown hook and a per-child watchdog kill servers a test forgot or a killed test
 * JVM left behind. Modules that use {@link dev.guard.testing.KafkaBroker} need
 * {@code kafka_2.13}, {@code kafka-tools}, {@code log4j-core} and {@code log4j-slf4j2-impl}
 * as test dependencies: the broker JVM runs from the test classpath.
 */
package dev.guard.testing;
