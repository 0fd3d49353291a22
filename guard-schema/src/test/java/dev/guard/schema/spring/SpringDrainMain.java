package dev.guard.schema.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** {@link SpringWorkerTest}'s worker as a process of its own: a {@code main} that starts it and returns. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class SpringDrainMain {

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(SpringDrainMain.class, SpringWorkerTest.Worker.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        app.run(args);
    }
}
