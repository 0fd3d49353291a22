/** Probes that need no broker client: a TCP connect and an HTTP(S) status check (java.net.http). */
package dev.guard.ready.net;
