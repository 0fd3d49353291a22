package dev.guard.init;

import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import java.io.IOException;
import java.util.Map;

/**
 * A manifest checked against the Kubernetes API's schema by the official Java client's models
 * (io.kubernetes:client-java-api, generated from the API server's OpenAPI document): their
 * {@code validateJsonElement} refuses a field the API does not define, at any depth, and a missing
 * required one.
 */
final class KubernetesSchema {
    private KubernetesSchema() {}

    /** Validates {@code json} (the document {@code doc} as JSON) as its apiVersion/kind; throws IllegalArgumentException. */
    static void validate(Map<String, Object> doc, String json) throws IOException {
        String type = doc.get("apiVersion") + " " + doc.get("kind");
        var tree = JsonParser.parseString(json);
        switch (type) {
            case "apps/v1 Deployment" -> V1Deployment.validateJsonElement(tree);
            case "v1 ConfigMap" -> V1ConfigMap.validateJsonElement(tree);
            case "v1 Secret" -> V1Secret.validateJsonElement(tree);
            case "policy/v1 PodDisruptionBudget" -> V1PodDisruptionBudget.validateJsonElement(tree);
            case "autoscaling/v2 HorizontalPodAutoscaler" -> V2HorizontalPodAutoscaler.validateJsonElement(tree);
            case "v1 ServiceAccount" -> V1ServiceAccount.validateJsonElement(tree);
            case "rbac.authorization.k8s.io/v1 Role" -> V1Role.validateJsonElement(tree);
            case "rbac.authorization.k8s.io/v1 RoleBinding" -> V1RoleBinding.validateJsonElement(tree);
            default -> throw new IllegalArgumentException("no API model for " + type + " here: add it to KubernetesSchema");
        }
    }
}
