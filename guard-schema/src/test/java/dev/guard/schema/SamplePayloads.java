package dev.guard.schema;

import java.nio.charset.StandardCharsets;

/** Realistic job payloads and the test schemas (shared by tests, the fuzz test and the benchmark). */
public final class SamplePayloads {

    private SamplePayloads() {}

    /** The send-email and resize-image schemas from src/test/resources/schemas, with examples. */
    public static Schemas schemas() {
        return Schemas.builder()
                .fromClasspath("send-email", "schemas/send-email.json")
                .fromClasspath("resize-image", "/schemas/resize-image.json")
                .example("send-email", valid("j-example"))
                .example("resize-image", "{\"job_id\":\"r-1\",\"image_url\":\"s3://img/1.png\",\"width\":640}")
                .build();
    }

    /**
     * The send-email schema as a 2020-12 one ({@code $schema} replaced), for the networknt path: the same
     * keywords, but {@code format} is an annotation in 2020-12, so its two formats are not checked there.
     */
    public static Schemas schemas2020() {
        String text;
        try (java.io.InputStream in = SamplePayloads.class.getClassLoader().getResourceAsStream("schemas/send-email.json")) {
            text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return Schemas.builder()
                .fromJson("send-email", text.replace("http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema")
                        .replace("\"definitions\"", "\"$defs\"").replace("#/definitions/", "#/$defs/"))
                .example("send-email", valid("j-example"))
                .build();
    }

    /** A valid send-email job of about 1 KB. */
    public static String valid(String jobId) {
        return "{\"job_id\":\"" + jobId + "\",\"type\":\"send-email\",\"created_at\":\"2026-11-30T09:15:02.123Z\","
                + "\"attempt\":0,\"priority\":\"normal\",\"user_email\":\"ada.lovelace@example.com\","
                + "\"template\":\"order-confirmation\",\"locale\":\"en-GB\","
                + "\"params\":{\"first_name\":\"Ada\",\"order_id\":\"ord-20261130-000042\",\"amount_cents\":129900,"
                + "\"currency\":\"GBP\",\"delivery_estimate\":\"3-5 working days\",\"gift\":false,"
                + "\"support_url\":\"https://shop.example.com/help/orders/ord-20261130-000042\"},"
                + "\"attachments\":[{\"name\":\"invoice-000042.pdf\",\"url\":\"https://files.example.com/inv/000042.pdf\",\"size_bytes\":48213},"
                + "{\"name\":\"terms.pdf\",\"url\":\"https://files.example.com/legal/terms-2026.pdf\",\"size_bytes\":120448}],"
                + "\"trace\":{\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"span_id\":\"00f067aa0ba902b7\","
                + "\"producer\":\"checkout-service/7.4.1 (build 2026-11-28, region eu-west-2, pod checkout-7d9f8c6b5-x2lqp)\"},"
                + "\"notes\":\"customer asked for a paper copy as well; the billing address differs from the delivery address; "
                + "do not include marketing blocks in this message; the VIP flag was cleared on 2026-10-01 by support ticket 88123\"}";
    }

    public static byte[] validBytes(String jobId) {
        return valid(jobId).getBytes(StandardCharsets.UTF_8);
    }

    /** The producer renamed job_id to id. */
    public static String renamed(String jobId) {
        return valid(jobId).replace("\"job_id\":", "\"id\":");
    }

    /** The producer sends attempt as a string and job_id as a number. */
    public static String typeChanged(long numericId) {
        return valid("X").replace("\"job_id\":\"X\"", "\"job_id\":" + numericId).replace("\"attempt\":0", "\"attempt\":\"0\"");
    }

    /** The producer wrapped the job in {"job": {...}, "meta": {...}}. */
    public static String nested(String jobId) {
        return "{\"job\":" + valid(jobId) + ",\"meta\":{\"producer\":\"v2\"}}";
    }

    /** Not JSON: the producer's serializer wrote a truncated object. */
    public static String malformed(String jobId) {
        String v = valid(jobId);
        return v.substring(0, 60) + "}";
    }
}
