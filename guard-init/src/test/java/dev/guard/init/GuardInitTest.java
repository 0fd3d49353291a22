package dev.guard.init;

import dev.guard.config.GuardSettings;
import dev.guard.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The top-level command: usage errors are 64, help lists the commands and every exit code. */
class GuardInitTest {

    @Test
    void noCommandIsAUsageError() {
        Cli.Result r = Cli.run();
        assertEquals(ExitCodes.USAGE, r.code(), r.toString());
        assertTrue(r.err().contains("a command is required"), r.toString());
    }

    @Test
    void unknownCommandOrOptionIsAUsageError() {
        Cli.Result cmd = Cli.run("wiat", "redis://redis:6379");
        assertEquals(ExitCodes.USAGE, cmd.code(), cmd.toString());
        assertTrue(cmd.err().contains("wiat"), cmd.toString());
        Cli.Result opt = Cli.run(Map.of(), "check-env", "--requier", "X");
        assertEquals(ExitCodes.USAGE, opt.code(), opt.toString());
        assertTrue(opt.err().contains("--requier"), opt.toString());
    }

    @Test
    void helpListsCommandsAndExitCodes() {
        Cli.Result r = Cli.run("--help");
        assertEquals(0, r.code(), r.toString());
        for (String s : new String[] {"check-env", "wait", "healthcheck", "validate", "Exit codes:", "64", "69", "77", "78",
                "130/143"}) {
            assertTrue(r.out().contains(s), s + " in " + r);
        }
    }

    /**
     * A run registers only the command it runs (start-up: picocli reflects over every registered
     * command), yet help, "help COMMAND", a typo's suggestion and --version behave as with all.
     */
    @Test
    void aRunBuildsOnlyItsCommandAndHelpStillSeesAll() {
        java.io.PrintWriter sink = new java.io.PrintWriter(java.io.Writer.nullWriter());
        assertEquals(java.util.Set.of("wait"),
                GuardInit.commandLine(Map.of(), System.in, sink, sink, "wait").getSubcommands().keySet());
        assertEquals(java.util.Set.of(), GuardInit.commandLine(Map.of(), System.in, sink, sink, "--version")
                .getSubcommands().keySet());
        assertEquals(GuardInit.COMMANDS, java.util.List.copyOf(
                GuardInit.commandLine(Map.of(), System.in, sink, sink, "help").getSubcommands().keySet()));
        assertEquals(GuardInit.COMMANDS, java.util.List.copyOf(
                GuardInit.commandLine(Map.of(), System.in, sink, sink, "--help").getSubcommands().keySet()));

        Cli.Result helpWait = Cli.run("help", "wait");
        assertEquals(0, helpWait.code(), helpWait.toString());
        assertTrue(helpWait.out().contains("--attempt-timeout"), helpWait.toString());
        Cli.Result waitHelp = Cli.run("wait", "--help");
        assertEquals(0, waitHelp.code(), waitHelp.toString());
        assertEquals(helpWait.out(), waitHelp.out());
        Cli.Result typo = Cli.run("wiat");
        assertTrue(typo.err().contains("Did you mean: guard-init "), "suggests a command: " + typo);
        Cli.Result version = Cli.run("--version");
        assertEquals(0, version.code(), version.toString());
        assertTrue(version.out().startsWith("guard-init "), version.toString());
    }

    /**
     * Every command's help prints its description as written, once: picocli reads "@|" as the start of
     * its colour markup, and "nats://[user:pass@|token@]" once made the TARGET paragraph come out
     * cut and then repeated.
     */
    @Test
    void helpPrintsEachDescriptionAsWrittenOnce() {
        java.io.PrintWriter sink = new java.io.PrintWriter(java.io.Writer.nullWriter());
        for (String name : GuardInit.COMMANDS) {
            picocli.CommandLine command = GuardInit.commandLine(Map.of(), System.in, sink, sink, name).getSubcommands().get(name);
            Cli.Result help = Cli.run(name, "--help");
            assertEquals(0, help.code(), help.toString());
            String out = help.out().replaceAll("\\s+", ""); // picocli wraps at spaces and after dots
            for (String paragraph : command.getCommandSpec().usageMessage().description()) {
                String text = paragraph.replace("%n", "").replaceAll("\\s+", ""); // %n: a format line break
                if (text.isEmpty()) {
                    continue; // a blank line between paragraphs
                }
                int first = out.indexOf(text);
                assertTrue(first >= 0, name + " --help lacks its description '" + text + "':\n" + help.out());
                String start = text.substring(0, Math.min(text.length(), 30));
                assertEquals(first, out.indexOf(start), name + " --help starts '" + text + "' twice:\n" + help.out());
                assertEquals(-1, out.indexOf(start, first + 1), name + " --help starts '" + text + "' twice:\n" + help.out());
            }
        }
    }

    @Test
    void durationsParseInTypesafeConfigFormat() {
        assertEquals(java.time.Duration.ofSeconds(60), GuardSettings.parseDuration("60s"));
        assertEquals(java.time.Duration.ofMillis(500), GuardSettings.parseDuration("500ms"));
        assertEquals(java.time.Duration.ofMinutes(2), GuardSettings.parseDuration("2m"));
        assertEquals(java.time.Duration.ofSeconds(10), GuardSettings.parseDuration("PT10S"));
        assertEquals(java.util.List.of("redis://a:1", "kafka://b:1,c:2?topics=x", "nats://d:4222"),
                GuardSettings.splitTargets("redis://a:1, kafka://b:1,c:2?topics=x  nats://d:4222"));
        assertEquals(java.util.List.of("A", "B:url", "C"), GuardSettings.splitNames(" A,B:url  C "));
    }

    /**
     * The exit codes each command's help lists are the constants of {@link ExitCodes} (and
     * diagnose's "no rule decided"), and the top-level help lists every constant: a code added to
     * ExitCodes but not to the help, or a number typed in a help text, fails here.
     */
    @Test
    void helpListsTheExitCodeConstants() throws Exception {
        java.util.Set<Integer> constants = new java.util.TreeSet<>();
        for (java.lang.reflect.Field f : ExitCodes.class.getFields()) {
            constants.add(f.getInt(null));
        }
        java.io.PrintWriter sink = new java.io.PrintWriter(java.io.Writer.nullWriter());
        picocli.CommandLine all = GuardInit.commandLine(Map.of(), System.in, sink, sink, "--help");
        java.util.Set<Integer> top = listed(all);
        assertEquals(constants, top, "guard-init --help lists every ExitCodes constant, and only those");
        for (String name : GuardInit.COMMANDS) {
            if (name.equals("help")) {
                continue;
            }
            java.util.Set<Integer> codes = listed(all.getSubcommands().get(name));
            assertTrue(!codes.isEmpty() && constants.containsAll(codes), name + " --help lists " + codes + ", not all of them constants " + constants);
            assertTrue(codes.contains(ExitCodes.OK) && codes.contains(ExitCodes.USAGE), name + " --help lists " + codes);
        }
    }

    private static java.util.Set<Integer> listed(picocli.CommandLine cl) {
        java.util.Set<Integer> codes = new java.util.TreeSet<>();
        for (String key : cl.getCommandSpec().usageMessage().exitCodeList().keySet()) {
            for (String n : key.trim().split("/")) {
                codes.add(Integer.parseInt(n.trim()));
            }
        }
        return codes;
    }

    /**
     * One path for a bad setting: each command that reads settings says
     * {@code guard-init <command>: <what, from where>} and exits with the setting's code
     * (healthcheck: unhealthy, 1). Here the --config file does not exist.
     */
    @Test
    void aBadSettingEndsEveryCommandTheSameWay() {
        String missing = "/nonexistent/guard-" + System.nanoTime() + ".conf";
        Map<String, String[]> commands = new java.util.LinkedHashMap<>();
        commands.put("check-env", new String[] {"check-env", "--config", missing, "--require", "REDIS_URL"});
        commands.put("wait", new String[] {"wait", "--config", missing, "tcp://127.0.0.1:9"});
        commands.put("validate", new String[] {"validate", "--config", missing, "--schema", "s.json", "{}"});
        commands.put("healthcheck", new String[] {"healthcheck", "--config", missing, "tcp://127.0.0.1:9"});
        for (Map.Entry<String, String[]> c : commands.entrySet()) {
            Cli.Result r = Cli.run(Map.of(), c.getValue());
            boolean health = c.getKey().equals("healthcheck");
            assertEquals(health ? ExitCodes.UNHEALTHY : ExitCodes.CONFIG, r.code(), r.toString());
            String prefix = "guard-init " + c.getKey() + ": " + (health ? "unhealthy: " : "");
            assertTrue(r.err().startsWith(prefix) && r.err().contains(missing), c.getKey() + ": " + r);
            assertTrue(!r.err().contains("at dev.guard"), "no stack trace: " + r);
        }
    }
}
