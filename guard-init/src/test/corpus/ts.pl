#!/usr/bin/perl
# Prefixes each line with an RFC3339 UTC timestamp with nanoseconds and a space,
# as `docker compose logs --timestamps` and `kubectl logs --timestamps` print them.
use strict; use warnings; use Time::HiRes qw(time); use POSIX qw(strftime);
$| = 1;
while (my $line = <STDIN>) {
    my $t = time; my $s = int($t);
    printf "%s.%09dZ %s", strftime("%Y-%m-%dT%H:%M:%S", gmtime($s)), int(($t - $s) * 1e9), $line;
}
