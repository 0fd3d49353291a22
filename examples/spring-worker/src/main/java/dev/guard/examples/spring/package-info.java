/**
 * The example stack's worker as a Spring Boot application: {@code guarded.SpringThumbnailWorker}
 * gets every part of guard from its auto-configuration and {@code thumbnail-worker.properties},
 * and {@code naive.NaiveSpringWorker} is the same worker as teams write it without guard. Each
 * application has a package of its own, so that neither one's component scan finds the other.
 * Both print the per-job lines of the cold-start harness's contract.
 */
package dev.guard.examples.spring;
