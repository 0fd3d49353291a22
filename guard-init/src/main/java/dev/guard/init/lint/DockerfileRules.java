package dev.guard.init.lint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.config.Redaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Dockerfile's final stage as the container it starts: its {@code ENTRYPOINT} and {@code CMD}
 * (the shell form runs {@code /bin/sh -c}, or the {@code SHELL} given), its {@code ENV}, its
 * {@code HEALTHCHECK}, checked by {@link ContainerRules}; and a secret baked into the image by
 * {@code ENV} or {@code ARG}. Docker's reference on the shell form: the executable "will be
 * started as a subcommand of /bin/sh -c, which does not pass signals".
 */
final class DockerfileRules {

    private DockerfileRules() {}

    private static final Pattern INSTRUCTION = Pattern.compile("(?i)^\\s*([A-Z]+)\\s+(.*)$", Pattern.DOTALL);
    private static final ObjectMapper JSON = new ObjectMapper();

    record Instruction(int line, String keyword, String rest) {}

    static List<Instruction> instructions(String text) {
        List<Instruction> out = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        StringBuilder cur = null;
        int start = 0;
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (cur == null && (l.isBlank() || l.stripLeading().startsWith("#"))) {
                continue;
            }
            if (cur != null && l.stripLeading().startsWith("#")) {
                continue; // a comment inside a continuation
            }
            if (cur == null) {
                cur = new StringBuilder();
                start = i + 1;
            }
            String t = l.stripTrailing();
            if (t.endsWith("\\")) {
                cur.append(t, 0, t.length() - 1).append(' ');
                continue;
            }
            cur.append(t);
            Matcher m = INSTRUCTION.matcher(cur.toString());
            if (m.matches()) {
                out.add(new Instruction(start, m.group(1).toUpperCase(Locale.ROOT), m.group(2).trim()));
            }
            cur = null;
        }
        return out;
    }

    static List<Finding> check(String file, String text) {
        List<Finding> out = new ArrayList<>();
        List<Instruction> all = instructions(text);
        int last = 0;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).keyword().equals("FROM")) {
                last = i;
            }
        }
        List<String> shell = List.of("/bin/sh", "-c");
        Instruction entrypoint = null;
        Instruction cmd = null;
        String from = all.isEmpty() || !all.get(last).keyword().equals("FROM") ? "" : all.get(last).rest().replaceAll("--\\S+\\s+", "")
                .split("\\s+")[0];
        Container c = new Container(file, "final stage (FROM " + from + ")", false, from);
        for (Instruction ins : all.subList(last, all.size())) {
            switch (ins.keyword()) {
                case "SHELL" -> {
                    List<String> s = array(ins.rest());
                    if (s != null) {
                        shell = s;
                    }
                }
                case "ENTRYPOINT" -> entrypoint = ins;
                case "CMD" -> cmd = ins;
                case "ENV" -> env(ins, c);
                case "HEALTHCHECK" -> {
                    String r = ins.rest();
                    int at = r.toUpperCase(Locale.ROOT).indexOf("CMD");
                    if (at >= 0) {
                        List<String> a = array(r.substring(at + 3).trim());
                        ContainerRules.redisPing(file, ins.line(), "HEALTHCHECK", a != null ? String.join(" ", a)
                                : r.substring(at + 3).trim(), out);
                    }
                }
                default -> { }
            }
        }
        for (Instruction ins : all) {
            if (ins.keyword().equals("ARG") || ins.keyword().equals("ENV")) {
                secretBaked(file, ins, out);
            }
        }
        // what runs: an exec-form ENTRYPOINT takes CMD as its arguments; a shell-form one ignores CMD
        Instruction start = entrypoint != null ? entrypoint : cmd;
        if (start != null) {
            List<String> a = array(start.rest());
            if (a != null) {
                c.argv.addAll(a);
                if (entrypoint != null && cmd != null) {
                    List<String> args = array(cmd.rest());
                    if (args != null) {
                        c.argv.addAll(args);
                    }
                }
            } else {
                c.argv.addAll(shell);
                c.argv.add(start.rest());
            }
            c.argvLine = start.line();
        }
        for (Finding f : ContainerRules.check(c)) {
            // an image's ENV is a default the deployment usually overrides: a loopback one is a warning here
            out.add(f.rule().equals("loopback-env") ? new Finding(f.file(), f.line(), f.rule(), Finding.Severity.WARNING,
                    f.found() + " (the image's default; the deployment's environment may override it)", f.runtime(), f.fix())
                    : f);
        }
        return out;
    }

    /** The JSON array of an exec form, or null for the shell form. */
    private static List<String> array(String text) {
        if (!text.startsWith("[")) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(text);
            if (!n.isArray()) {
                return null;
            }
            List<String> out = new ArrayList<>();
            n.forEach(x -> out.add(x.asText()));
            return out;
        } catch (java.io.IOException e) {
            return null; // Docker runs an unparsable array in the shell form too
        }
    }

    private static final Pattern ENV_PAIR = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\\S*)");

    private static void env(Instruction ins, Container c) {
        Matcher m = ENV_PAIR.matcher(ins.rest());
        boolean any = false;
        while (m.find()) {
            any = true;
            c.env.put(m.group(1), new Container.Env(m.group(1), unquote(m.group(2)), ins.line()));
        }
        if (!any) {
            String[] kv = ins.rest().split("\\s+", 2); // ENV NAME value (the old form)
            if (kv.length == 2) {
                c.env.put(kv[0], new Container.Env(kv[0], kv[1], ins.line()));
            }
        }
    }

    private static String unquote(String v) {
        return v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))
                ? v.substring(1, v.length() - 1) : v;
    }

    /** A secret's value in ENV or ARG stays in the image's config and history. */
    private static void secretBaked(String file, Instruction ins, List<Finding> out) {
        Matcher m = ENV_PAIR.matcher(ins.rest());
        while (m.find()) {
            String name = m.group(1);
            String value = unquote(m.group(2));
            if (Redaction.isSecretName(name) && !value.isBlank() && !value.startsWith("$")) {
                out.add(new Finding(file, ins.line(), "secret-in-image", Finding.Severity.ERROR,
                        ins.keyword() + " " + name + "=" + Redaction.MASK + ": a secret's value written into the image",
                        "everyone who can pull the image reads it (docker history, docker inspect, the layer's config),"
                                + " in every registry and cache it reaches, and it stays after the password is changed",
                        "pass it at run time from a Secret (Kubernetes env.valueFrom.secretKeyRef, Compose secrets or"
                                + " environment); for a build-time secret, RUN --mount=type=secret"));
            }
        }
    }
}
