package dev.guard.init.lint;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code guard-init lint}: the seeds' pitfalls found in the files that deploy a worker, before
 * anything runs. Reads Compose files, Kubernetes manifests (a whole {@code helm template} output
 * at once) and Dockerfiles into {@link Container}s, and runs the rules: on each container
 * ({@link ContainerRules}), on each Compose project ({@link ComposeRules}), on the Kubernetes
 * objects together ({@link KubernetesRules}), on each Dockerfile ({@link DockerfileRules}).
 * Every rule names a run-time cause; none fires on a setting whose effect the files cannot show.
 */
public final class Lint {

    /** What lint read and found. */
    public record Result(List<Finding> findings, List<String> notes) {
        public boolean hasErrors() {
            return findings.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR);
        }
    }

    private Lint() {}

    /** Pod templates by kind: where each workload kind keeps its pod. */
    private static final Map<String, List<String>> POD_PATHS = Map.of(
            "Deployment", List.of("spec", "template"),
            "StatefulSet", List.of("spec", "template"),
            "DaemonSet", List.of("spec", "template"),
            "ReplicaSet", List.of("spec", "template"),
            "Job", List.of("spec", "template"),
            "CronJob", List.of("spec", "jobTemplate", "spec", "template"));

    /**
     * Lints {@code inputs} (name and text each).
     *
     * @throws IllegalArgumentException naming the file, for one that does not parse
     */
    public static Result run(Map<String, String> inputs) {
        List<Finding> out = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<K8sObject> objects = new ArrayList<>();
        Map<String, Input> read = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : inputs.entrySet()) {
            Input in = Input.read(e.getKey(), e.getValue());
            read.put(in.name, in);
            if (in.kind == Input.Kind.DOCKERFILE) {
                out.addAll(DockerfileRules.check(in.name, in.text));
                continue;
            }
            int seen = 0;
            for (Y doc : in.documents) {
                if (Input.isCompose(doc)) {
                    seen++;
                    List<Container> services = compose(in.name, doc);
                    services.forEach(c -> out.addAll(ContainerRules.check(c)));
                    out.addAll(ComposeRules.check(in.name, doc, services));
                } else if (Input.isKubernetes(doc)) {
                    seen++;
                    if ("List".equals(doc.text("kind")) && doc.get("items") != null) {
                        doc.get("items").items().forEach(i -> objects.add(new K8sObject(in.name, i)));
                    } else {
                        objects.add(new K8sObject(in.name, doc));
                    }
                }
            }
            if (seen == 0) {
                notes.add(in.name + ": neither a Compose file, nor Kubernetes objects, nor a Dockerfile: nothing checked");
            }
        }
        if (!objects.isEmpty()) {
            List<Container> containers = new ArrayList<>();
            for (K8sObject o : objects) {
                containers.addAll(kubernetes(o, objects));
            }
            containers.forEach(c -> out.addAll(ContainerRules.check(c)));
            out.addAll(KubernetesRules.check(objects, containers));
        }
        List<Finding> allowedHere = out.stream().filter(f -> read.containsKey(f.file()) && read.get(f.file()).allows(f)).toList();
        out.removeAll(allowedHere);
        allowedHere.forEach(f -> notes.add(f.file() + ":" + f.line() + ": [" + f.rule() + "] allowed by the comment there"));
        out.sort(Comparator.comparing(Finding::file).thenComparingInt(Finding::line).thenComparing(Finding::rule));
        return new Result(List.copyOf(new ArrayList<>(new java.util.LinkedHashSet<>(out))), notes);
    }

    /** A Kubernetes object and the file it came from. */
    record K8sObject(String file, Y doc) {
        String kind() {
            return doc.text("kind");
        }

        String name() {
            Y m = doc.get("metadata");
            return m == null ? "" : String.valueOf(m.text("name"));
        }

        Y podTemplate() {
            List<String> path = POD_PATHS.get(kind());
            if (path == null) {
                return "Pod".equals(kind()) ? doc : null;
            }
            Y n = doc;
            for (String p : path) {
                n = n == null ? null : n.get(p);
            }
            return n;
        }
    }

    private static List<Container> compose(String file, Y doc) {
        List<Container> out = new ArrayList<>();
        for (Map.Entry<String, Y> s : doc.get("services").entries().entrySet()) {
            Y svc = s.getValue();
            Container c = new Container(file, "service " + s.getKey(), false, svc.text("image"));
            c.node = svc;
            Y entrypoint = svc.get("entrypoint");
            Y command = svc.get("command");
            for (Y part : new Y[] {entrypoint, command}) {
                if (part == null) {
                    continue;
                }
                c.argvLine = c.argvLine == 0 ? part.line() : c.argvLine;
                if (part.isScalar() && part.text() != null) {
                    c.argv.addAll(Shell.words(part.text())); // Compose splits a string as a shell would, and runs no shell
                } else {
                    c.argv.addAll(part.strings());
                }
            }
            Y env = svc.get("environment");
            if (env != null && env.isMap()) {
                env.entries().forEach((k, v) -> c.env.put(k, new Container.Env(k, v.text(), v.line())));
            } else if (env != null) {
                for (Y item : env.items()) {
                    String t = item.text();
                    if (t == null) {
                        continue;
                    }
                    int eq = t.indexOf('=');
                    String k = eq < 0 ? t : t.substring(0, eq);
                    c.env.put(k, new Container.Env(k, eq < 0 ? null : t.substring(eq + 1), item.line()));
                }
            }
            c.envIncomplete = svc.get("env_file") != null;
            String network = svc.text("network_mode");
            c.sharedNetwork = network != null && (network.equals("host") || network.startsWith("service:")
                    || network.startsWith("container:"));
            Y hc = svc.get("healthcheck");
            c.healthcheck = hc == null ? null : hc.get("test");
            out.add(c);
        }
        return out;
    }

    private static List<Container> kubernetes(K8sObject o, List<K8sObject> all) {
        List<Container> out = new ArrayList<>();
        Y template = o.podTemplate();
        Y spec = template == null ? null : template.get("spec");
        if (spec == null) {
            return out;
        }
        boolean hostNetwork = "true".equals(spec.text("hostNetwork"));
        Y cs = spec.get("containers");
        Y ics = spec.get("initContainers");
        Set<Integer> ports = new java.util.HashSet<>();
        for (Y list : new Y[] {cs, ics}) {
            if (list == null) {
                continue;
            }
            for (Y c : list.items()) {
                Y p = c.get("ports");
                if (p != null) {
                    for (Y port : p.items()) {
                        Integer n = parseInt(port.text("containerPort")); // null: a templated port
                        if (n != null) {
                            ports.add(n);
                        }
                    }
                }
            }
        }
        for (Y list : new Y[] {ics, cs}) {
            if (list == null) {
                continue;
            }
            boolean init = list == ics;
            for (Y y : list.items()) {
                Container c = new Container(o.file(), o.kind() + "/" + o.name() + (init ? " init container " : " container ")
                        + y.text("name"), init, y.text("image"));
                c.node = y;
                for (String k : new String[] {"command", "args"}) {
                    Y part = y.get(k);
                    if (part != null) {
                        c.argvLine = c.argvLine == 0 ? part.line() : c.argvLine;
                        c.argv.addAll(part.strings());
                    }
                }
                Y envFrom = y.get("envFrom");
                if (envFrom != null) {
                    for (Y ref : envFrom.items()) {
                        String prefix = ref.text("prefix") == null ? "" : ref.text("prefix");
                        Y cm = ref.get("configMapRef");
                        Y sec = ref.get("secretRef");
                        Map<String, String> data = cm != null ? configData(all, "ConfigMap", cm.text("name"))
                                : sec != null ? configData(all, "Secret", sec.text("name")) : null;
                        if (data == null) {
                            c.envIncomplete = true;
                            continue;
                        }
                        data.forEach((k, v) -> c.env.put(prefix + k, new Container.Env(prefix + k, v, ref.line())));
                    }
                }
                Y env = y.get("env");
                if (env != null) {
                    for (Y e : env.items()) {
                        String name = e.text("name");
                        if (name != null) {
                            String value = e.get("valueFrom") != null ? null : e.text("value") == null ? "" : e.text("value");
                            c.env.put(name, new Container.Env(name, value, e.line()));
                        }
                    }
                }
                c.sharedNetwork = hostNetwork;
                Set<Integer> others = new java.util.HashSet<>(ports);
                Y own = y.get("ports");
                if (own != null) {
                    own.items().forEach(p -> others.remove(parseInt(p.text("containerPort"))));
                }
                c.podPorts.addAll(others);
                c.liveness = y.get("livenessProbe");
                c.readiness = y.get("readinessProbe");
                c.startup = y.get("startupProbe");
                Y lifecycle = y.get("lifecycle");
                c.preStop = lifecycle == null ? null : lifecycle.get("preStop");
                out.add(c);
            }
        }
        return out;
    }

    private static Integer parseInt(String s) {
        try {
            return s == null ? null : Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A ConfigMap's data or a Secret's (decoded) data and stringData; null when the input does not hold it. */
    static Map<String, String> configData(List<K8sObject> all, String kind, String name) {
        for (K8sObject o : all) {
            if (kind.equals(o.kind()) && name != null && name.equals(o.name())) {
                Map<String, String> out = new LinkedHashMap<>();
                Y data = o.doc().get("data");
                if (data != null) {
                    data.entries().forEach((k, v) -> out.put(k, "Secret".equals(kind) ? decode(v.text()) : v.text()));
                }
                Y string = o.doc().get("stringData");
                if (string != null) {
                    string.entries().forEach((k, v) -> out.put(k, v.text()));
                }
                return out;
            }
        }
        return null;
    }

    private static String decode(String b64) {
        try {
            return b64 == null ? null : new String(Base64.getMimeDecoder().decode(b64), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
