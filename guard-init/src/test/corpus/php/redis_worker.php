<?php
// A queue worker on phpredis (Debian php-redis 5.3.7, PHP 8.2 CLI): BLPOP from list "jobs",
// retrying the connection every second.
//
// Connects the usual phpredis way, a new Redis object per attempt: parse_url(URL), then
// $redis->connect(host, port, 2.0) (2 s connect timeout), auth() with the URL's password when it has
// one, select() the URL's db. Logs with Monolog 2 (Debian php-monolog 2.9, loaded through Debian's
// /usr/share/php/Monolog/autoload.php): Logger "worker", one StreamHandler on php://stdout, the
// default LineFormatter ("[%datetime%] %channel%.%level_name%: %message% %context% %extra%", so
// lines end with " [] []"); errors are logged as Monolog documents it,
// $log->error('...', ['exception' => $e]) (the default LineFormatter prints the exception's class,
// code, message and file:line, no stack trace).
// PHP's own error reporting is Debian's CLI default (log_errors=On to stderr, display_errors=Off):
// warnings that phpredis or file_put_contents raise themselves appear as "PHP Warning:  ..." lines.
// A failed result write (file_put_contents returns false with a warning) is turned into a
// RuntimeException carrying error_get_last()'s message, the common plain-PHP idiom.
require_once 'Monolog/autoload.php';

use Monolog\Handler\StreamHandler;
use Monolog\Logger;

$log = new Logger('worker');
$log->pushHandler(new StreamHandler('php://stdout', Logger::DEBUG));

$url = getenv('URL') ?: 'redis://redis:6379/0';
$deadline = microtime(true) + (float) (getenv('DEADLINE_S') ?: 10);
$maxJobs = (int) (getenv('JOBS') ?: 12);
$jobUs = (int) ((float) (getenv('JOB_MS') ?: 50) * 1000);
$resultDir = (string) getenv('RESULT_DIR');

$log->info("worker starting, redis url $url");
$parts = parse_url($url);
$host = $parts['host'] ?? 'redis';
$port = $parts['port'] ?? 6379;
$password = isset($parts['pass']) ? urldecode($parts['pass']) : null;
$db = (int) ltrim($parts['path'] ?? '/0', '/');

$redis = null;
$failures = 0; // failed attempts since the last "connected to"
$done = 0;
while (microtime(true) < $deadline && $done < $maxJobs) {
    try {
        $redis = new Redis();
        $redis->connect($host, $port, 2.0);
        if ($password !== null) {
            $redis->auth($password);
        }
        $redis->select($db);
        $log->info("connected to $url");
        $failures = 0;
        while (microtime(true) < $deadline && $done < $maxJobs) {
            $item = $redis->blPop(['jobs'], 1);
            if (!$item) {
                continue;
            }
            $payload = $item[1];
            $log->info("job $payload received");
            usleep($jobUs);
            $id = $payload;
            if (str_starts_with($payload, '{')) {
                try {
                    $job = json_decode($payload, true, 512, JSON_THROW_ON_ERROR);
                    $id = $job['job_id'] ?? throw new UnexpectedValueException('job_id missing');
                } catch (Throwable) {
                    continue; // schema skew: the job is dropped without a word (the bug this corpus models)
                }
            }
            if ($resultDir !== '') {
                try {
                    $file = "$resultDir/$id.done";
                    if (file_put_contents($file, '') === false) {
                        throw new RuntimeException(error_get_last()['message'] ?? "cannot write $file");
                    }
                } catch (Throwable $e) {
                    $log->error("job $payload failed", ['exception' => $e]);
                    continue;
                }
            }
            $log->info("job $payload processed");
            $done++;
        }
    } catch (RedisException $e) {
        $failures++;
        $log->error("attempt $failures failed, retrying in 1s", ['exception' => $e]);
        sleep(1);
    }
}
$log->info("worker stopping after $done jobs");
try {
    $redis?->close();
} catch (RedisException) {
}
exit(0);
