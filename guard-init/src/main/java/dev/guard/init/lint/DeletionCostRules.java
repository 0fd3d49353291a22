package dev.guard.init.lint;

import dev.guard.drain.kubernetes.DeletionCost;
import dev.guard.drain.kubernetes.PodApi;
import java.util.List;

/**
 * A worker asked to keep its pod's deletion cost ({@value DeletionCost#ENV}=on) that will refuse
 * to start: no service account token where guard reads it (the pod and its ServiceAccount turn
 * the mount off, and the container projects none), a pod {@code hostname} that is not its name
 * without {@value PodApi#ENV_POD_NAME}, or a Compose service, which has no API server at all.
 * Each is a boot refusal (exit 78) on every pod of the rollout.
 */
final class DeletionCostRules {

    static final String RULE = "deletion-cost-unreachable";

    private DeletionCostRules() {}

    /** Whether the container turns the deletion cost on here (a value the worker reads as on). */
    static boolean on(Container c) {
        String v = c.envValue(DeletionCost.ENV);
        try {
            return v != null && DeletionCost.parseSwitch(v, "lint");
        } catch (IllegalArgumentException e) {
            return false; // the worker refuses the value itself, naming it
        }
    }

    /** A Compose service with the deletion cost on: not in a pod, the worker stops with 78. */
    static void compose(Container c, List<Finding> out) {
        if (!c.where.startsWith("service ") || !on(c)) {
            return;
        }
        out.add(new Finding(c.file, c.env.get(DeletionCost.ENV).line(), RULE, Finding.Severity.ERROR,
                c.where + ": " + DeletionCost.ENV + "=" + c.envValue(DeletionCost.ENV) + " outside Kubernetes",
                "the worker is in no pod (KUBERNETES_SERVICE_HOST is unset): guard refuses to start it, exit 78, and"
                        + " Compose restarts or gives up on it",
                "remove " + DeletionCost.ENV + " from this service (it is for Kubernetes pods), or set it to off"));
    }

    /** The containers of one workload whose pod template is {@code spec}. */
    static void pod(Lint.K8sObject o, Y spec, List<Container> containers, List<Lint.K8sObject> objects, List<Finding> out) {
        for (Container c : containers) {
            if (c.init || !on(c)) {
                continue;
            }
            int line = c.env.get(DeletionCost.ENV).line();
            if (!tokenMounted(spec, c, objects)) {
                out.add(new Finding(c.file, line, RULE, Finding.Severity.ERROR,
                        c.where + ": " + DeletionCost.ENV + " is on, and the container gets no service account token ("
                                + "automountServiceAccountToken: false, no volume mounted at " + PodApi.SERVICE_ACCOUNT + ")",
                        "guard finds no token to patch the pod with: the worker refuses to start, exit 78, on every pod",
                        "mount a projected token, ca.crt and namespace into this container at " + PodApi.SERVICE_ACCOUNT
                                + " (examples/kubernetes/worker-deployment.yaml, volume api-token), or let the pod mount"
                                + " its service account"));
            }
            Y hostname = spec.get("hostname");
            if (hostname != null && hostname.text() != null && !c.env.containsKey(PodApi.ENV_POD_NAME)) {
                out.add(new Finding(c.file, line, RULE, Finding.Severity.ERROR,
                        c.where + ": " + DeletionCost.ENV + " is on, " + PodApi.ENV_POD_NAME + " is unset and the pod's"
                                + " hostname is '" + hostname.text() + "', not its name",
                        "guard takes the pod's name from HOSTNAME, the API server has no such pod (404): the worker"
                                + " refuses to start, exit 78",
                        "set " + PodApi.ENV_POD_NAME + " through the downward API (valueFrom.fieldRef.fieldPath:"
                                + " metadata.name)"));
            }
        }
    }

    /**
     * Whether the container will find a token at {@link PodApi#SERVICE_ACCOUNT}: a volume mounted
     * there, or the pod's automount (the pod's own field wins over its ServiceAccount's, which
     * counts only when that ServiceAccount is in the input).
     */
    private static boolean tokenMounted(Y spec, Container c, List<Lint.K8sObject> objects) {
        Y mounts = c.node == null ? null : c.node.get("volumeMounts");
        if (mounts != null) {
            for (Y m : mounts.items()) {
                String path = m.text("mountPath");
                if (path != null && PodApi.SERVICE_ACCOUNT.toString().equals(path.replaceAll("/+$", ""))) {
                    return true;
                }
            }
        }
        String pod = spec.text("automountServiceAccountToken");
        if (pod != null) {
            return !"false".equals(pod.trim());
        }
        String account = spec.text("serviceAccountName") != null ? spec.text("serviceAccountName") : "default";
        for (Lint.K8sObject o : objects) {
            if ("ServiceAccount".equals(o.kind()) && account.equals(o.name())) {
                String a = o.doc().text("automountServiceAccountToken");
                return a == null || !"false".equals(a.trim());
            }
        }
        return true;
    }
}
