/**
 * The consumer boundary: {@link dev.guard.schema.boundary.JobBoundary} wraps a worker's handler so
 * every received job ends in exactly one recorded {@link dev.guard.schema.Outcome}, counted
 * and reconciled by the {@link dev.guard.schema.boundary.Ledger}.
 */
package dev.guard.schema.boundary;
