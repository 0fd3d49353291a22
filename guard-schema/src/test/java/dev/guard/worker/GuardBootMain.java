package dev.guard.worker;

import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.guard.schema.deadletter.redis.RedisListDeadLetters;
import io.lettuce.core.RedisClient;
import java.time.Duration;

/**
 * The worker {@link GuardProcessTest} starts: a {@code main} of a dozen lines with {@link Guard},
 * on {@code REDIS_URL} and the list {@code QUEUE}; each job takes {@code JOB_MS}. Prints
 * {@code booted} once the guard let it start, and {@code job <id> done} per job.
 */
public final class GuardBootMain {

    private GuardBootMain() {}

    public static void main(String[] args) {
        Guard guard = Guard.boot(GuardSpec.builder("boot-test-worker")
                .require("QUEUE")
                .waitForEnv("REDIS_URL")
                .schemas("thumbnail", b -> b.fromJson("thumbnail", GuardTest.SCHEMA).example("thumbnail", GuardTest.EXAMPLE))
                .build());
        System.out.println("booted");
        long jobMillis = Long.parseLong(guard.environment().getOrDefault("JOB_MS", "0"));
        RedisClient redis = RedisClient.create(guard.env("REDIS_URL"));
        int exit;
        try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(redis, guard.env("QUEUE"))
                .pollTimeout(Duration.ofMillis(200)).build();
             RedisListDeadLetters dead = RedisListDeadLetters.connect(guard.env("REDIS_URL"), guard.env("QUEUE") + ":dead")) {
            exit = guard.run(jobs, RedisJob::payload, dead, (job, drain) -> {
                System.out.println("job " + job.string("job_id") + " started");
                for (long t = 0; t < jobMillis; t += 50) {
                    drain.checkpoint();
                    Thread.sleep(50);
                }
                System.out.println("job " + job.string("job_id") + " done");
            });
        }
        redis.shutdown();
        System.out.println("exit " + exit);
        System.exit(exit);
    }
}
