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
}
