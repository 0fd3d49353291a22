package dev.guard.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The placeholder rule by how templates are written. The cases are this project's own, written in
 * the styles the corpus of public templates showed (guard-core/src/test/corpus/env-settings/,
 * learn set); the corpus itself is measured by its own command, not here.
 */
class PlaceholdersTest {

    @ParameterizedTest
    @ValueSource(strings = {
        // instruction phrases: a verb with "me", "this", "your", "with" ..., "please", "... here"
        "put_your_api_key_here", "generate-with-openssl-rand-hex-32", "please_update_this_secret", "ChangeThisSecret",
        "replace-with-your-own", "set-me-in-production", "use-a-strong-password-please", "insert_token_here", "fill-me-in",
        "YourApiKeyGoesHere", "your-bucket-name", "REPLACE_WITH_REAL_KEY", "generate_a_random_string", "paste-your-token",
        "api_key_here", "mail.yourdomain.com", "changeme", "CHANGE_ME", "change-me-in-cluster",
        // a verb first asking for what the last word names; a describing word with a secret's noun; a length requirement
        "changeUser", "changeSigningToken", "INSERT_CLUSTER_JOIN_TOKEN", "generate-api-key", "STRONG_DB_PASSWORD",
        "long-random-secret", "dummy_key", "signing key of 64 chars", "NOT SECURE, INSECURE DEFAULT",
        // runs of one character
        "xxx", "XXXXXXXX", "ghp_xxxxxxxxxxxxxxxxxxxx", "sk-xxxxxxxxxxxx", "AKIAXXXXXXXXXXXXXXXX", "aaaaaaaa", "********",
        // template tokens and references nobody expanded
        "<redis-url>", "${REDIS_URL}", "$(REDIS_URL)", "{{ .Values.redis.url }}", "$REDIS_PASSWORD",
        // words for nothing
        "None", "null", "undefined", "TODO", "tbd"})
    void aPlaceholderIsRecognised(String value) {
        assertTrue(Placeholders.isWord(value), value);
        assertNotNull(Placeholders.describe(value), value);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // generated secrets and real passwords, as they come
        "9f86d081884c7d659a2feaa0c55ad015", "q8Zr1+Kx/9Lw0mB3tP==", "Tr0ub4dor&3", "correct-horse-battery-staple",
        "s3cr3t-2f7c", "Jx7$Kq2!vLm9", "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
        // development defaults that run as they are
        "postgres", "guest", "minioadmin", "redis", "app", "worker", "rabbitmq", "admin",
        // hosts and service names that contain a verb or a repeated letter
        "redis-master.prod.svc.cluster.local", "update-service", "generate-thumbnails-worker", "set-top-box-api",
        "change-stream-consumer", "box", "xx", "maxx-worker", "replace-images", "here", "your", "use",
        "update-user", "create-token-queue", "key-value-store", "random-walker", "long-running-jobs", "sample-rate"})
    void aRealValueIsNot(String value) {
        assertFalse(Placeholders.isWord(value), value);
        assertNull(Placeholders.describe(value), value);
    }

    @Test
    void aTemplateTokenInsideALongerValueIsNamedNotTheWholeValue() {
        assertEquals("the template placeholder <BUCKET> inside it", Placeholders.describe("/srv/<BUCKET>/<REGION>"));
        assertEquals("the template placeholder {tenant} inside it", Placeholders.describe("https://{tenant}.example.com/api"));
        assertTrue(Placeholders.describe("/data/$BUCKET_NAME/in").startsWith("an unexpanded reference $BUCKET_NAME inside it"));
        assertEquals("a run of 'x' where characters belong", Placeholders.describe("https://hooks.example.com/T000/xxxxxxxx/abc"));
        // a display name with an address in angle brackets is a value, not a token; a JSON object is no brace token
        assertNull(Placeholders.describe("Jobs <jobs@example.com>"));
        assertNull(Placeholders.describe("{\"region\":\"eu-west-1\"}"));
    }

    @Test
    void aSecretsValueCountsOnlyWholeForms() {
        // a generated password may hold '$NAME', '{abc}' or 'xxxx' by chance: inside a secret only whole forms count
        assertNull(Placeholders.describe("aB3$XYZW9q", true));
        assertNull(Placeholders.describe("k{abc}Q7_xxxx9Lp2Rt", true));
        assertNotNull(Placeholders.describe("$REDIS_PASSWORD", true));
        assertNotNull(Placeholders.describe("<your-token>", true));
        assertNotNull(Placeholders.describe("generate-with-openssl-rand-hex-32", true));
    }

    @Test
    void aBareReferenceSaysKubernetesExpandsOnlyParentheses() {
        assertEquals("an unexpanded reference $REDIS_PASSWORD (Kubernetes expands only $(REDIS_PASSWORD) in an env value,"
                + " and no shell ran)", Placeholders.describe("$REDIS_PASSWORD"));
        assertTrue(Placeholders.namesNoSecret("$REDIS_PASSWORD"));
        assertFalse(Placeholders.namesNoSecret("s3cr$t"));
    }

    @Test
    void theValueIsItsOwnName() {
        assertTrue(Placeholders.isOwnName("REDIS_PASSWORD", "redis_password"));
        assertTrue(Placeholders.isOwnName("SECRET_KEY", "SECRET-KEY"));
        assertTrue(Placeholders.isOwnName("store.auth.adminUser", "admin-user"), "the setting's last words");
        assertTrue(Placeholders.isOwnName("SMTP_RELAY_PASSWORD", "smtp_password"), "a secret made of its setting's words");
        assertFalse(Placeholders.isOwnName("SMTP_RELAY_USER", "smtp_user"), "a user name may be a stack's own");
        assertFalse(Placeholders.isOwnName("REDIS_URL", "redis://redis:6379"));
        assertFalse(Placeholders.isOwnName("DB", "db"));
        assertFalse(Placeholders.isOwnName("REDIS_HOST", "redis"));
    }

    @Test
    void aHostUnderANameReservedForExamplesIsASamplesHost() {
        for (String h : List.of("example.com", "smtp.example.com", "files.example.org", "api.example", "broker.invalid")) {
            assertTrue(Placeholders.isExampleHost(h), h);
        }
        for (String h : List.of("example-corp.com", "myexample.com", "redis", "example.company.io", "examples.net")) {
            assertFalse(Placeholders.isExampleHost(h), h);
        }
    }

    @Test
    void aSecretWithACountingOrKeyboardRunIsASample() {
        assertEquals("a sample value (a counting or keyboard run)", Placeholders.describe("acme-docker-key-1234567890!", true));
        assertNull(Placeholders.describe("7f3a9c21e5b84d06", true));
    }

    @Test
    void wordsSplitAtSeparatorsAndCamelCase() {
        assertEquals(List.of("change", "this", "secret"), Placeholders.words("ChangeThisSecret"));
        assertEquals(List.of("put", "your", "api", "key", "here"), Placeholders.words("put_your_API_key-here"));
        assertEquals(List.of("hex", "32"), Placeholders.words("hex32"));
    }

    @Test
    void aGenericWordIsASecretsPlaceholder() {
        for (String w : List.of("password", "SECRET", "Token", "supersecret", "secret_key")) {
            assertTrue(Placeholders.isGenericSecret(w), w);
        }
        assertFalse(Placeholders.isGenericSecret("postgres"));
    }
}
