package dev.guard.testing.coldstart;

import dev.guard.testing.KafkaBroker;

/**
 * A private KRaft broker (the KafkaBroker fixture: a broker JVM from the class path's Kafka jars)
 * on a port fixed before it starts: refused until its turn, then really started, which takes
 * seconds (the run goes on starting the other parts meanwhile). Stopped at the end of each run;
 * its log directory survives, so every later run meets a broker that recovers its topics.
 */
final class KafkaBrokerHandle implements StackServices.BrokerHandle {
  private final KafkaBroker broker = KafkaBroker.builder().build();

  @Override
  public String uri() {
    return "kafka://" + broker.bootstrapServers();
  }

  @Override
  public String variable() {
    return StackContract.KAFKA_URL;
  }

  @Override
  public void start() {
    broker.start();
  }

  @Override
  public boolean startsSlowly() {
    return true;
  }

  @Override
  public void stop() {
    broker.stop();
  }

  @Override
  public void cleanUp(String queue) {
    // a private broker: its log directory goes with close()
  }

  void close() {
    broker.close();
  }
}
