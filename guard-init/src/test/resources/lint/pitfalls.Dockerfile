# Each pitfall of the seeds once, for guard-init lint's tests (LintTest).
FROM eclipse-temurin:17-jdk AS build
COPY . /src
RUN cd /src && ./mvnw -q package

FROM eclipse-temurin:17-jre
ENV REDIS_URL=redis://localhost:6379 \
    REDIS_PASSWORD=hunter2hunter2
COPY --from=build /src/target/worker.jar /app/worker.jar
HEALTHCHECK CMD redis-cli -h redis ping || exit 1
CMD java -jar /app/worker.jar
