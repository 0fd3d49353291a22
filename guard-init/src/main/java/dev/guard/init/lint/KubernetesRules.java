package dev.guard.init.lint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rules on Kubernetes objects taken together (a {@code helm template} output, a directory of
 * manifests): the drain's grace against {@code terminationGracePeriodSeconds} and the longest
 * job, {@code replicas:} on a workload an autoscaler owns, an autoscaled workload no
 * PodDisruptionBudget covers, and the names each container must read ({@link Drift}).
 */
final class KubernetesRules {

    private KubernetesRules() {}

    static List<Finding> check(List<Lint.K8sObject> objects, List<Container> containers) {
        List<Finding> out = new ArrayList<>();
        for (Lint.K8sObject o : objects) {
            Y template = o.podTemplate();
            Y spec = template == null ? null : template.get("spec");
            if (spec == null) {
                continue;
            }
            Y tgps = spec.get("terminationGracePeriodSeconds");
            Duration grace = Duration.ofSeconds(30);
            if (tgps != null && tgps.text() != null) {
                try {
                    grace = Duration.ofSeconds(Long.parseLong(tgps.text().trim()));
                } catch (NumberFormatException e) {
                    continue; // templated
                }
            }
            Duration annotated = longestAnnotation(o.doc().get("metadata"));
            if (annotated == null && template.get("metadata") != null) {
                annotated = longestAnnotation(template.get("metadata"));
            }
            String prefix = o.kind() + "/" + o.name() + " ";
            List<Container> mine = new ArrayList<>();
            for (Container c : containers) {
                if (c.file.equals(o.file()) && c.where.startsWith(prefix)) {
                    mine.add(c);
                    Grace.check(c, grace, "terminationGracePeriodSeconds", tgps != null ? tgps.line() : spec.line(),
                            annotated, out);
                }
            }
            DeletionCostRules.pod(o, spec, mine, objects, out);
        }
        for (Lint.K8sObject o : objects) {
            boolean hpa = "HorizontalPodAutoscaler".equals(o.kind());
            boolean keda = "ScaledObject".equals(o.kind());
            if (!hpa && !keda) {
                continue;
            }
            Y ref = o.doc().get("spec") == null ? null : o.doc().get("spec").get("scaleTargetRef");
            if (ref == null) {
                continue;
            }
            String kind = ref.text("kind") == null ? "Deployment" : ref.text("kind");
            String name = ref.text("name");
            Lint.K8sObject target = objects.stream().filter(t -> kind.equals(t.kind()) && t.name().equals(name)).findFirst()
                    .orElse(null);
            if (target == null) {
                continue;
            }
            Y replicas = target.doc().get("spec") == null ? null : target.doc().get("spec").get("replicas");
            if (replicas != null && replicas.text() != null) {
                out.add(new Finding(target.file(), replicas.line(), "replicas-under-autoscaler", Finding.Severity.WARNING,
                        kind + "/" + name + ": replicas: " + replicas.text() + ", and " + o.kind() + "/" + o.name()
                                + " scales it",
                        "every kubectl apply (every deploy) sets the count back to " + replicas.text() + ": a scale-down"
                                + " the autoscaler did not ask for, taking workers with jobs in hand at each rollout",
                        "remove spec.replicas from the " + kind + " and let the " + o.kind() + " own the count"));
            }
            if (!coveredByPdb(target, objects)) {
                out.add(new Finding(o.file(), o.doc().line(), "autoscaled-without-pdb", Finding.Severity.WARNING,
                        o.kind() + "/" + o.name() + " scales " + kind + "/" + name + ", and no PodDisruptionBudget in the"
                                + " input selects its pods",
                        "a node drain (an upgrade, an autoscaler removing a node) may evict every worker at once: each"
                                + " hands back or loses the job in hand at the same moment, and nothing takes jobs until new"
                                + " pods have started",
                        "add a PodDisruptionBudget whose selector matches the pods (maxUnavailable: 1)"));
            }
        }
        out.addAll(Drift.check(containers));
        return out;
    }

    private static Duration longestAnnotation(Y metadata) {
        Y annotations = metadata == null ? null : metadata.get("annotations");
        String v = annotations == null ? null : annotations.text("guard.dev/longest-job-seconds");
        try {
            return v == null ? null : Duration.ofSeconds(Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean coveredByPdb(Lint.K8sObject target, List<Lint.K8sObject> objects) {
        Y template = target.podTemplate();
        Y labels = template == null || template.get("metadata") == null ? null : template.get("metadata").get("labels");
        if (labels == null) {
            return false;
        }
        Map<String, Y> podLabels = labels.entries();
        for (Lint.K8sObject o : objects) {
            if (!"PodDisruptionBudget".equals(o.kind()) || o.doc().get("spec") == null) {
                continue;
            }
            Y selector = o.doc().get("spec").get("selector");
            Y match = selector == null ? null : selector.get("matchLabels");
            if (match == null || match.entries().isEmpty()) {
                continue;
            }
            boolean all = match.entries().entrySet().stream().allMatch(e -> podLabels.containsKey(e.getKey())
                    && String.valueOf(podLabels.get(e.getKey()).text()).equals(e.getValue().text()));
            if (all) {
                return true;
            }
        }
        return false;
    }
}
