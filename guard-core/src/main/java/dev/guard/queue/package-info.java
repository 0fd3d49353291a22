/**
 * What guard's job sources share, whichever broker they read: {@link dev.guard.queue.SourceOptions}
 * (poll timeout, hand-back timeout, interruption limit) and the builder that carries them
 * ({@link dev.guard.queue.SourceBuilder}). The sources themselves live in one package per broker
 * client, the only package that imports it.
 */
package dev.guard.queue;
