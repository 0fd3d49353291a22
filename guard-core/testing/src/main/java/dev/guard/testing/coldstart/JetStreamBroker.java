package dev.guard.testing.coldstart;

import dev.guard.testing.NatsServer;

/**
 * A private NATS server with JetStream, on a port fixed before it starts: refused until its turn,
 * then really started (the fixture runs a local {@code nats-server}, or a container where none is
 * installed and Docker runs). Stopped at the end of each run; its store survives, so every run
 * meets a server that recovers its streams at start, as a restarted pod does.
 */
final class JetStreamBroker implements StackServices.BrokerHandle {
  private final NatsServer server = NatsServer.builder().jetStream(true).build();

  @Override
  public String uri() {
    return server.url();
  }

  @Override
  public String variable() {
    return StackContract.NATS_URL;
  }

  @Override
  public void start() {
    server.start();
  }

  @Override
  public void stop() {
    server.stop();
  }

  @Override
  public void cleanUp(String queue) {
    // a private server: its store goes with close()
  }

  void close() {
    server.close();
  }
}
