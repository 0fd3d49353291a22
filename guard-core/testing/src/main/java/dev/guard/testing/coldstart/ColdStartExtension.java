package dev.guard.testing.coldstart;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 side of {@link ColdStartTest}: runs the harness before each annotated test, prints the
 * report to standard output, fails the test when a run did not reconcile (unless
 * {@code requirePass = false}), and resolves {@link ColdStartReport} parameters.
 */
public final class ColdStartExtension implements BeforeEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ColdStartExtension.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    ColdStartTest settings = find(context.getRequiredTestMethod())
        .or(() -> find(context.getRequiredTestClass()))
        .orElseThrow(() -> new ExtensionConfigurationException(
            "ColdStartExtension needs @ColdStartTest on the test method or its class"));
    ColdStart.Builder builder = ColdStart.builder()
        .worker(withEnv(ProcessSpec.java(settings.worker()), settings.workerEnv()))
        .backend(ProcessSpec.java(settings.backend()))
        .broker(settings.broker())
        .jobs(settings.jobs())
        .skewed(settings.skewed());
    if (settings.seed() >= 0) {
      builder.seed(settings.seed());
    }
    if (settings.order().length > 0) {
      builder.order(settings.order());
    }
    try {
      settings.configurer().getDeclaredConstructor().newInstance().configure(builder);
    } catch (ReflectiveOperationException e) {
      throw new ExtensionConfigurationException("could not create the ColdStartConfigurer "
          + settings.configurer().getName() + ": it needs a public no-argument constructor", e);
    }
    ColdStartReport report = builder.build().run(settings.runs());
    System.out.println(context.getDisplayName() + ": cold starts (seed " + report.seed() + ")\n" + report.render());
    context.getStore(NS).put(context.getUniqueId(), report);
    if (settings.requirePass()) {
      report.assertAllPassed();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == ColdStartReport.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getStore(NS).get(context.getUniqueId(), ColdStartReport.class);
  }

  private static Optional<ColdStartTest> find(AnnotatedElement element) {
    return Optional.ofNullable(element.getAnnotation(ColdStartTest.class));
  }

  private static ProcessSpec withEnv(ProcessSpec spec, String[] env) {
    ProcessSpec out = spec;
    for (String entry : env) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new ExtensionConfigurationException("workerEnv entry '" + entry + "' is not NAME=value");
      }
      out = out.withEnv(entry.substring(0, eq), entry.substring(eq + 1));
    }
    return out;
  }
}
