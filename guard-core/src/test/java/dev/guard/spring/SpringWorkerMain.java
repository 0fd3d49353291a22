package dev.guard.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** A Spring Boot worker's {@code main}, nothing more: run in a child JVM with a real environment. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class SpringWorkerMain {

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(SpringWorkerMain.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        app.run(args).close();
        System.out.println("worker started and stopped");
    }
}
