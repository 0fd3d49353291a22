package dev.guard.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/**
 * Child-JVM helper for {@link ConfigOriginTest}: a worker that uses the guard's defaults (real
 * environment, ConfigFactory.load() semantics) and prints, as JSON, the origin description
 * ConfigFactory.load() itself reports and the guard's report. Never prints a raw value.
 */
public final class RealWorkerMain {

    private RealWorkerMain() {}

    public static void main(String[] args) throws Exception {
        Config loaded = ConfigFactory.load();
        ConfigReport report = ConfigGuard.builder().inContainer(false)
                .requirePath("guardchild.redis.url", SettingType.URL).mustComeFromEnv("guardchild.redis.url").build().check();
        ObjectMapper json = new ObjectMapper();
        ObjectNode out = json.createObjectNode();
        out.put("loadOrigin", loaded.getValue("guardchild.redis.url").origin().description());
        out.set("report", json.readTree(report.toJson()));
        System.out.println(json.writeValueAsString(out));
    }
}
