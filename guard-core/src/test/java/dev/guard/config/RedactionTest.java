package dev.guard.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RedactionTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "redis://:s3cr3t-pw@redis:6379/0          | redis://:****@redis:6379/0",
        "redis://worker:s3cr3t-pw@redis:6379      | redis://worker:****@redis:6379",
        "redis://s3cr3t-pw@redis:6379             | redis://****@redis:6379",
        "rediss://default:p@ss@w0rd@cache:6380    | rediss://default:****@cache:6380",
        "amqp://guest:s3cr3t-pw@rabbit:5672/vhost | amqp://guest:****@rabbit:5672/vhost",
        "amqp://guest@rabbit:5672                 | amqp://guest@rabbit:5672",
        "nats://tok3n-s3cr3t@nats:4222            | nats://****@nats:4222",
        "nats://a:b@n1:4222,nats://c:d@n2:4222    | nats://a:****@n1:4222,nats://c:****@n2:4222",
        "https://api/health?token=s3cr3t-pw&x=1   | https://api/health?token=****&x=1",
        "redis://redis:6379                       | redis://redis:6379",
        "b1:9092,b2:9092                          | b1:9092,b2:9092",
        "connecting to redis://u:s3cr3t-pw@r:1 failed | connecting to redis://u:****@r:1 failed",
        "password=s3cr3t-pw                       | password=****",
        "worker:s3cr3t-pw@rabbit:5672,r2:5672     | worker:****@rabbit:5672,r2:5672",
        "redis://:s3cr3t/pw#x@redis:6379          | redis://:****@redis:6379",
        "amqp://u:s3cr3t?pw@rabbit/vh,amqp://r2   | amqp://u:****@rabbit/vh,amqp://r2",
        "amqp://guest:****@rabbit:5672            | amqp://guest:****@rabbit:5672",
        "see user@example.com for access          | see user@example.com for access",
        "amqp://u:s3cr3t-pw@a//;amqp://u:s3cr3t-pw@b// down | amqp://u:****@a//;amqp://u:****@b// down",
        "sentinel://:s3;cr3t@s1:26379;sentinel://:pw2@s2:26379 | sentinel://:****@s1:26379;sentinel://:****@s2:26379",
    })
    void masksSecretsInText(String in, String expected) {
        assertEquals(expected, Redaction.maskText(in));
    }

    /** Secret pairs in any case and either separator; the check that skips texts without one must not skip these. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Api-Key: s3cr3t-pw                       | Api-Key: ****",
        "ACCESS_KEY=s3cr3t-pw                     | ACCESS_KEY=****",
        "failed: Redis PassWord=s3cr3t-pw now     | failed: Redis PassWord=**** now",
        "x-auth-TOKEN:s3cr3t-pw rest              | x-auth-TOKEN:**** rest",
        "my_credentials=s3cr3t-pw                 | my_credentials=****",
        "pwd:s3cr3t-pw                            | pwd:****",
    })
    void masksPairsWhateverTheirCase(String in, String expected) {
        assertEquals(expected, Redaction.maskText(in));
    }

    /** A probe's usual texts hold nothing to mask: they come back as the same string, no regular expression run. */
    @ParameterizedTest
    @ValueSource(strings = {"loading the dataset (40%, eta 3s)", "PONG",
        "io.lettuce.core.RedisLoadingException: LOADING Redis is loading the dataset in memory",
        "java.net.ConnectException: Connection refused: /127.0.0.1:6379", "127.0.0.1:6379"})
    void textsWithoutSecretsAreReturnedAsTheyAre(String text) {
        org.junit.jupiter.api.Assertions.assertSame(text, Redaction.maskText(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"REDIS_PASSWORD", "API_TOKEN", "AWS_SECRET_ACCESS_KEY", "SSH_KEY", "DB_CREDENTIALS",
        "redis.password", "Kafka_Sasl_Jaas_Config", "DB_PASS", "ES_PASS", "smtp.pass", "PASS", "MAIL_PASS_FILE"})
    void secretNames(String name) {
        assertTrue(Redaction.isSecretName(name));
        assertEquals(Redaction.MASK, Redaction.maskValue(name, "s3cr3t-pw"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"REDIS_URL", "KAFKA_BROKERS", "NATS_URL", "GUARD_TIMEOUT", "PASSPORT_API_URL", "BYPASS_CACHE", "COMPASS_URL"})
    void ordinaryNamesKeepTheirValue(String name) {
        assertFalse(Redaction.isSecretName(name));
        assertEquals("redis://r:6379", Redaction.maskValue(name, "redis://r:6379"));
    }
}
