/** Dead letters to a Redis list (lettuce); the only package that imports lettuce. */
package dev.guard.schema.deadletter.redis;
