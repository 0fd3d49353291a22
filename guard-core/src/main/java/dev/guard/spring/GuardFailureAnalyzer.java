package dev.guard.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Prints guard's findings as Spring Boot's Description and Action, instead of a stack trace. */
public final class GuardFailureAnalyzer extends AbstractFailureAnalyzer<GuardStartupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, GuardStartupException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
