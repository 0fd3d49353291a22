#!/usr/bin/env bash
# Builds local stand-ins for the server images compose/docker-compose.yml names, for machines
# that reach no registry (CI here). Each is made of this machine's installed Debian packages
# (the real redis-server and rabbitmq-server, the versions the tests run against), copied into a
# root file system with everything they depend on, and imported into the container engine under
# the name and tag the Compose file uses. On a laptop with a registry, `docker compose up` pulls
# the official images instead; the tags are the versions the stand-ins hold, so both run the
# same server release.
#
#   compose/standins/build.sh [redis] [rabbitmq] [nats]   # default: all; needs podman (.ci/engine)
#
# (nats is not in the Compose file: the test fixtures run it in a container where asked to.)
#
# An image is rebuilt only when the package versions it holds, or this script, changed (label
# guard.standin.key).
set -euo pipefail
self=$(readlink -f "$0")

log() { printf '[standins] %s\n' "$*" >&2; }
die() { printf '[standins] ERROR: %s\n' "$*" >&2; exit 1; }
command -v podman >/dev/null || die "podman is not installed: run .ci/engine first"

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# closure PKG...: the installed packages PKG... need, following Pre-Depends and Depends (the first
# installed alternative; a virtual package by an installed provider). One dpkg-query for the whole
# package database: asking it once per package and per virtual name made every up-to-date check
# take about 10 s per image, paid by each test class that asks for the images.
closure() {
  local -A inst=() deps=() prov=() seen=()
  local pkg status pre dep provides v p alt opt name
  local -a vs alts opts queue
  # fields split on a unit separator: a tab is whitespace to read, and empty fields would merge
  while IFS=$'\x1f' read -r pkg status pre dep provides; do
    [[ $status == 'install ok installed' ]] || continue
    inst[$pkg]=1
    deps[$pkg]="$pre,$dep"
    IFS=',' read -ra vs <<<"$provides"
    for v in "${vs[@]}"; do
      v=${v%%(*}; v=${v//[[:space:]]/}; v=${v%%:*}
      [[ -n $v && -z ${prov[$v]:-} ]] && prov[$v]=$pkg
    done
  done < <(dpkg-query -W -f=$'${Package}\x1f${Status}\x1f${Pre-Depends}\x1f${Depends}\x1f${Provides}\n')
  queue=("$@")
  while (( ${#queue[@]} )); do
    p=${queue[0]%%:*}; queue=("${queue[@]:1}")
    [[ -n ${seen[$p]:-} || -z ${inst[$p]:-} ]] && continue
    seen[$p]=1
    IFS=',' read -ra alts <<<"${deps[$p]}"
    for alt in "${alts[@]}"; do
      IFS='|' read -ra opts <<<"$alt"
      for opt in "${opts[@]}"; do
        name=${opt%%(*}; name=${name%%[*}; name=${name//[[:space:]]/}; name=${name%%:*}
        [[ -z $name ]] && continue
        if [[ -n ${inst[$name]:-} ]]; then queue+=("$name"); break; fi
        if [[ -n ${prov[$name]:-} ]]; then queue+=("${prov[$name]}"); break; fi
      done
    done
  done
  printf '%s\n' "${!seen[@]}" | LC_ALL=C sort
}

# rootfs DIR PKG...: the files of PKG... and their closure, plus what any image has (a shell,
# coreutils, grep, sed, users, hosts lookup)
rootfs() {
  local dir=$1; shift
  rm -rf "$dir"; mkdir -p "$dir"
  local pkgs; pkgs=$(closure "$@" base-files dash bash coreutils grep sed findutils gawk libc-bin)
  # the usr-merge symlinks (/bin -> usr/bin) first, as the host has them, so that files listed
  # under /bin land in usr/bin; then the files (and symlinks) of each package
  mkdir -p "$dir/usr"
  local link
  for link in bin sbin lib lib32 lib64 libx32; do
    if [[ -L /$link ]]; then mkdir -p "$dir/$(readlink "/$link")"; ln -sfn "$(readlink "/$link")" "$dir/$link"; fi
  done
  dpkg -L $pkgs 2>/dev/null | LC_ALL=C sort -u | while read -r f; do
    [[ -f $f || -L $f ]] && printf '%s\0' "$f"
  done | xargs -0 cp -a --parents -t "$dir" 2>/dev/null || true
  mkdir -p "$dir"/{tmp,data,proc,dev,sys,run,var/tmp,root,etc}
  chmod 1777 "$dir/tmp" "$dir/var/tmp"
  cp /etc/passwd /etc/group "$dir/etc/"
  printf 'hosts: files dns\n' >"$dir/etc/nsswitch.conf"
  echo "$pkgs"
}

# import NAME:TAG DIR KEY CHANGE...: the rootfs as an image with Dockerfile-style CHANGEs
import_image() {
  local ref=$1 dir=$2 key=$3; shift 3
  local changes=(--change "LABEL guard.standin.key=$key" --change "LABEL org.opencontainers.image.description=guard stand-in: Debian packages of the build host")
  local c; for c in "$@"; do changes+=(--change "$c"); done
  tar --create --directory "$dir" --numeric-owner . | podman import "${changes[@]}" - "$ref" >/dev/null
  log "$ref: imported ($(du -sh "$dir" | cut -f1) of files)"
}

# key PKG...: the package versions an image would hold; unchanged key = no rebuild
key() { { dpkg-query -W -f='${Package}=${Version} ' $(closure "$@"); cat "$self"; } | sha256sum | cut -c1-16; }
current() { podman image inspect --format '{{ index .Labels "guard.standin.key" }}' "$1" 2>/dev/null || true; }
# official REF: an image of that name is there and is not a stand-in (pulled): it is kept
official() { podman image exists "$1" && [[ -z $(current "$1") || $(current "$1") == "<no value>" ]]; }

work=${GUARD_STANDIN_WORK:-/var/tmp/guard-standins}
mkdir -p "$work"

# plan IMAGE PKG...: sets ref (docker.io/library/IMAGE:<version of the first PKG>) and k (its
# key); false when there is nothing to build (an official image there, or the stand-in up to date)
plan() {
  local image=$1 p version; shift
  for p in "$@"; do installed "$p" || die "$p must be installed (apt-get install $p)"; done
  version=$(dpkg-query -W -f='${Version}' "$1" | sed 's/^[0-9]*://; s/[-+].*//')
  ref=docker.io/library/$image:$version
  k=$(key "$@")
  if official "$ref"; then log "$ref: an official (pulled) image is there; kept"; return 1; fi
  if [[ $(current "$ref") == "$k" ]]; then log "$ref: up to date"; return 1; fi
}

build_redis() {
  plan redis redis-server redis-tools || return 0
  rootfs "$work/redis" redis-server redis-tools >/dev/null
  # the official image's entrypoint: `redis-server ARGS` runs without protected mode (there is no
  # config file to bind it to loopback), so other containers may connect
  mkdir -p "$work/redis/usr/local/bin"
  cat >"$work/redis/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
if [ "${1#-}" != "$1" ]; then set -- redis-server "$@"; fi
if [ "$1" = redis-server ]; then shift; set -- redis-server --protected-mode no "$@"; fi
exec "$@"
EOF
  chmod 0755 "$work/redis/usr/local/bin/docker-entrypoint.sh"
  import_image "$ref" "$work/redis" "$k" \
    'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' 'CMD ["redis-server"]' 'WORKDIR /data' \
    'ENV PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' 'EXPOSE 6379'
}

build_rabbitmq() {
  plan rabbitmq rabbitmq-server || return 0
  local dir=$work/rabbitmq
  rootfs "$dir" rabbitmq-server procps >/dev/null
  # what the official image configures: guest may log in from other containers, and a fixed
  # Erlang cookie so rabbitmq-diagnostics (the healthcheck) can talk to the node
  rm -rf "$dir/var/lib/rabbitmq" "$dir/var/log/rabbitmq" "$dir/etc/rabbitmq"
  mkdir -p "$dir/var/lib/rabbitmq" "$dir/var/log/rabbitmq" "$dir/etc/rabbitmq"
  printf 'loopback_users.guest = false\nlisteners.tcp.default = 5672\n' >"$dir/etc/rabbitmq/rabbitmq.conf"
  printf 'NODENAME=rabbit@localhost\n' >"$dir/etc/rabbitmq/rabbitmq-env.conf"
  head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z' >"$dir/var/lib/rabbitmq/.erlang.cookie"
  chmod 0400 "$dir/var/lib/rabbitmq/.erlang.cookie"
  import_image "$ref" "$dir" "$k" \
    'CMD ["rabbitmq-server"]' 'ENV HOME=/var/lib/rabbitmq' 'ENV RABBITMQ_LOGS=-' \
    'ENV PATH=/usr/lib/rabbitmq/bin:/usr/sbin:/usr/bin:/sbin:/bin' 'EXPOSE 5672'
}

# nats: the test fixtures' NatsServer runs nats:<version> where no local nats-server is installed
# or guard.fixtures.backend=docker (ContainerNatsServerIT); the official image's entrypoint is
# nats-server itself
build_nats() {
  plan nats nats-server || return 0
  rootfs "$work/nats" nats-server >/dev/null
  import_image "$ref" "$work/nats" "$k" \
    'ENTRYPOINT ["/usr/sbin/nats-server"]' 'ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin' 'EXPOSE 4222'
}

# one build at a time on this machine: test JVMs of several modules (Maven's -T) ask for the same
# images at once, and a second import of an image under way would race the first
exec 9>"${TMPDIR:-/tmp}/guard-standins.lock"
flock 9

targets=("$@"); (( ${#targets[@]} )) || targets=(redis rabbitmq nats)
for t in "${targets[@]}"; do
  case $t in
    redis) build_redis ;;
    rabbitmq) build_rabbitmq ;;
    nats) build_nats ;;
    *) die "unknown stand-in '$t' (known: redis rabbitmq nats)" ;;
  esac
done
