package dev.guard.examples.scaledown;

/**
 * The options the Redis benches share: {@code --jobs N --rounds N --warmup N --redis-uri U}, and
 * {@code --consumers N} where the bench takes it.
 */
record BenchOptions(int jobs, int consumers, int rounds, int warmup, String redisUri) {

    /** Parses {@code args} over the defaults (20,000 jobs, 1 consumer, 5 rounds, 1 warm-up, a private redis-server). */
    static BenchOptions parse(String[] args, boolean takesConsumers) {
        int jobs = 20_000;
        int consumers = 1;
        int rounds = 5;
        int warmup = 1;
        String uri = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--jobs" -> jobs = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--redis-uri" -> uri = args[i + 1];
                case "--consumers" -> {
                    if (!takesConsumers) {
                        throw new IllegalArgumentException("this bench runs one worker: no --consumers");
                    }
                    consumers = Integer.parseInt(args[i + 1]);
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; options: --jobs"
                        + (takesConsumers ? " --consumers" : "") + " --rounds --warmup --redis-uri");
            }
        }
        return new BenchOptions(jobs, consumers, rounds, warmup, uri);
    }
}
