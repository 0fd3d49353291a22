/** Probes that need no broker client: a TCP connect and an HTTP(S) status check (the JDK's HttpURLConnection). */
package dev.guard.ready.net;
