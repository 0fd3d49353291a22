#!/usr/bin/env bash
# Builds a JVM application's container image as an OCI image layout tarball, with no Docker
# daemon and no registry: a jlink'd runtime from the local JDK, the application's jars, and the
# few OS files a jlink'd JVM needs, taken from this host (dynamic loader, libc and what ldd lists).
# Builds guard-init's image, and the example worker's and backend's (module examples).
#
#   build-image.sh <target dir> [<java home>]                                  guard-init
#   build-image.sh <target dir> <java home> <name> <app jar> <classpath file>  any other app
#
# guard-init: reads <target>/guard-init.jar (shaded); entrypoint `java ... -jar`, with an AppCDS
#   archive of what a `wait` loads.
# other apps: <app jar> plus every jar of <classpath file> (a ':'-separated runtime classpath, as
#   maven-dependency-plugin's build-classpath writes it) go to /app/lib; the entrypoint is
#   `java ... -cp /app/lib/*`, so the container's command names the main class.
# Writes <target>/<name>-image.tar (OCI image layout: oci-layout, index.json, blobs/sha256/)
#        <target>/image/ (work dir: runtime/, layers, layout/)
#
# Load it with `podman load -i <name>-image.tar`, `skopeo copy oci-archive:...`, or
# `docker load` (Docker 25+ reads OCI layouts). Layers are reproducible: sorted, mtime 0,
# owner 0:0 (except /home/nonroot and /tmp), gzip without names or timestamps.
#
# Invoked by Maven in the package phase (exec-maven-plugin, guard-init/pom.xml, examples/pom.xml).
set -euo pipefail

target=$(cd "$1" && pwd)
java_home=${2:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}}
name=${3:-guard-init}
jar=${4:-$target/guard-init.jar}
classpath_file=${5:-}
work=$target/image
out=$target/$name-image.tar
uid=65532
gid=65532
version=${GUARD_IMAGE_VERSION:-0.1.0}

log() { printf '[image] %s\n' "$*" >&2; }
die() { printf '[image] ERROR: %s\n' "$*" >&2; exit 1; }

[[ -f $jar ]] || die "$jar not found: run the package phase first (./mvnw package)"
libs_cp=""
if [[ $name != guard-init ]]; then
  [[ -f $classpath_file ]] || die "$name: classpath file '$classpath_file' not found (maven-dependency-plugin build-classpath)"
  libs_cp=$(cat "$classpath_file")
fi
[[ -x $java_home/bin/jlink ]] || die "no jlink in $java_home/bin: install a full JDK (apt-get install openjdk-17-jdk-headless)"
[[ -d $java_home/jmods ]] || die "no $java_home/jmods: jlink needs the JDK's jmods (Debian: apt-get install openjdk-17-jmods)"
for tool in ldd tar gzip sha256sum; do
  command -v "$tool" >/dev/null || die "$tool is not installed"
done

rm -rf "$work"
mkdir -p "$work"/{os,runtime-layer/opt,app/app,layout/blobs/sha256}

# --- 1. the runtime: modules the jar needs, found by jdeps -------------------------------
# Left out on purpose: java.desktop (only java.beans bean-binding paths of typesafe-config,
# jackson and commons-beanutils, which guard-init never calls; 11 MB) and jdk.jfr (lettuce
# uses it only when present). Added: jdk.crypto.ec (TLS key exchange for rediss/amqps/tls),
# and the small modules the clients look up reflectively.
if [[ -n $libs_cp ]]; then
  # jdeps cannot resolve a classpath whose jars declare modules the others only are as automatic
  # names (commons-validator requires "commons.collections"); the apps built this way use the same
  # clients as guard-init, whose shaded jar jdeps reads (and the worker's probe endpoint, jdk.httpserver)
  deps=java.base,java.management,java.naming,java.net.http,java.security.jgss,java.security.sasl,java.sql,jdk.httpserver,jdk.net,jdk.unsupported
else
  deps=$("$java_home/bin/jdeps" --ignore-missing-deps --print-module-deps --multi-release 17 "$jar")
fi
modules=$(printf '%s\n' "${deps//,/$'\n'}" java.logging java.naming java.xml \
  java.security.jgss java.security.sasl jdk.crypto.ec jdk.unsupported jdk.net \
  | grep -vxE 'java\.desktop|jdk\.jfr' | sort -u | paste -sd, -)
log "jdeps: $deps"
log "jlink modules: $modules"
"$java_home/bin/jlink" --add-modules "$modules" \
  --strip-debug --no-header-files --no-man-pages --compress=2 \
  --generate-cds-archive \
  --output "$work/runtime-layer/opt/java"
runtime=$work/runtime-layer/opt/java

# --- 2. the OS files the runtime needs ------------------------------------------------------
os=$work/os
mkdir -p "$os"/{etc,tmp,proc,dev,home/nonroot}
chmod 1777 "$os/tmp"
chmod 0755 "$os/home/nonroot"
# every shared object java, libjvm.so and the runtime's libs load (ldd resolves the chain)
mapfile -t libs < <(
  find "$runtime" -name '*.so' -o -path "$runtime/bin/*" -type f | sort | while read -r f; do
    ldd "$f" 2>/dev/null || true
  done | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}' | sort -u)
[[ ${#libs[@]} -gt 0 ]] || die "ldd found no shared objects for $runtime/bin/java"
for lib in "${libs[@]}"; do
  case $lib in "$runtime"/*) continue ;; esac   # the runtime's own libs are in its layer
  mkdir -p "$os$(dirname "$lib")"
  cp -L "$lib" "$os$lib"                          # real file at the path the loader asks for
  log "os: $lib"
done
# glibc dlopens libgcc_s for thread cancellation; make sure it is there even if ldd missed it
if [[ ! -e $os/lib/x86_64-linux-gnu/libgcc_s.so.1 && -e /lib/x86_64-linux-gnu/libgcc_s.so.1 ]]; then
  mkdir -p "$os/lib/x86_64-linux-gnu"; cp -L /lib/x86_64-linux-gnu/libgcc_s.so.1 "$os/lib/x86_64-linux-gnu/"
fi
cat >"$os/etc/passwd" <<EOF
root:x:0:0:root:/root:/sbin/nologin
nonroot:x:$uid:$gid:nonroot:/home/nonroot:/sbin/nologin
EOF
cat >"$os/etc/group" <<EOF
root:x:0:
nonroot:x:$gid:
EOF
printf 'hosts: files dns\n' >"$os/etc/nsswitch.conf"

# --- 3. the app ------------------------------------------------------------------------------
# Each sets jvm_flags (the entrypoint's), launch (what follows them), cmd_json and description.

# guard-init: the shaded jar, run with -jar, and an AppCDS archive of the classes a `wait` loads
guard_init_app() {
  cp "$jar" "$work/app/app/guard-init.jar"
  # JVM flags of the entrypoint: small heap and fast start for a short-lived CLI; serial GC, C1
  # only and one compiler thread (two took a core from the probes: a `wait` 0.02 s slower), no
  # perf-data file in /tmp.
  jvm_flags=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -Xss256k -Xms8m -Xmx64m -XX:MaxMetaspaceSize=96m
    -XX:ReservedCodeCacheSize=32m -XX:-UsePerfData -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp
    -Dio.netty.allocator.type=unpooled)
  # (unpooled: lettuce's netty allocates no pooled direct-memory arenas for a few PINGs; ~4 MB less RSS)
  launch=(-jar /app/guard-init.jar)
  cmd_json='"Cmd":["--help"],'
  description="guard-init: check-env, wait, healthcheck, validate for queue workers"
  # The archive: a static CDS archive (-Xshare:dump) of the JDK's and the app's classes a training
  # run loaded. It replaces the runtime's default archive and does better than a dynamic one on top
  # of it (JDK 17 relocates both at every start): a `wait` on four ready services 0.06-0.10 s
  # faster, 1 MB less RSS. The training run waits inside the image's own file tree (chroot, so the
  # recorded paths are /opt/java and /app/guard-init.jar), on closed local ports (the failure
  # paths) and, where this machine answers on a service's standard local port, on that service
  # (the classes of a handshake that succeeds: 0.04-0.08 s). The ready targets used are logged;
  # GUARD_IMAGE_TRAIN_TARGETS replaces them (space-separated URIs). The jar's mtime is set to the
  # layers' (0) first, as the archive records it. Needs root (chroot, mount); without it the image
  # simply has no archive. GUARD_IMAGE_CDS=0 skips it.
  touch -d @0 "$work/app/app/guard-init.jar"
  if [[ ${GUARD_IMAGE_CDS:-1} != 1 || $(id -u) != 0 ]] || ! command -v unshare >/dev/null || ! command -v chroot >/dev/null; then
    log "cds: skipped (needs root, unshare and chroot; or GUARD_IMAGE_CDS=0)"
    return
  fi
  local ready_targets
  if [[ -n ${GUARD_IMAGE_TRAIN_TARGETS+set} ]]; then
    ready_targets=$GUARD_IMAGE_TRAIN_TARGETS
  else
    ready_targets=""
    local port uri
    for uri in redis://127.0.0.1:6379 amqp://guest:guest@127.0.0.1:5672 nats://127.0.0.1:4222; do
      port=${uri##*:}
      if timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then ready_targets+=" $uri"; fi
    done
  fi
  local train=$work/train-root
  rm -rf "$train"; mkdir -p "$train"
  cp -a "$os/." "$work/runtime-layer/." "$work/app/." "$train/"
  in_train_root() {
    unshare --mount --propagation private sh -c 'mount --rbind /dev "$1/dev" && mount -t proc proc "$1/proc" && shift && exec chroot "$@"' \
      sh "$train" "$train" "$@"
  }
  log "cds: training run: wait on closed ports and on${ready_targets:- no ready service}"
  # shellcheck disable=SC2086 # ready_targets is a list of URIs
  in_train_root /opt/java/bin/java "${jvm_flags[@]}" -Xshare:off -XX:DumpLoadedClassList=/app/guard-init.classlist \
    -jar /app/guard-init.jar wait redis://127.0.0.1:1 amqp://127.0.0.1:1 nats://127.0.0.1:1 kafka://127.0.0.1:1 \
    tcp://127.0.0.1:1 http://127.0.0.1:1/ $ready_targets --timeout 3s --attempt-timeout 1s >"$work/cds-training.log" 2>&1 || true
  log "cds: $(wc -l <"$train/app/guard-init.classlist" 2>/dev/null || echo no) classes loaded; dumping the archive"
  in_train_root /opt/java/bin/java "${jvm_flags[@]}" -Xshare:dump -XX:SharedClassListFile=/app/guard-init.classlist \
    -XX:SharedArchiveFile=/app/guard-init.jsa -cp /app/guard-init.jar >>"$work/cds-training.log" 2>&1 || true
  if [[ -s $train/app/guard-init.jsa ]]; then
    cp "$train/app/guard-init.jsa" "$work/app/app/guard-init.jsa"
    touch -d @0 "$work/app/app/guard-init.jsa"
    jvm_flags+=(-XX:SharedArchiveFile=/app/guard-init.jsa)
    log "cds: archive $(stat -c %s "$work/app/app/guard-init.jsa") bytes"
  else
    log "cds: no archive written (see $work/cds-training.log); the image runs without it"
  fi
  rm -rf "$train"
}

# any other app: its jar and its runtime classpath in /app/lib; the command names the main class
classpath_app() {
  mkdir -p "$work/app/app/lib"
  cp "$jar" "$work/app/app/lib/$name.jar"
  local lib_jar cp_jars
  IFS=: read -ra cp_jars <<<"$libs_cp"
  for lib_jar in "${cp_jars[@]}"; do
    [[ $lib_jar == *.jar ]] || die "$name: classpath entry $lib_jar is not a jar (run the package phase of its module)"
    cp "$lib_jar" "$work/app/app/lib/"
  done
  touch -d @0 "$work/app/app/lib"/*.jar
  # a long-running worker: the JVM sizes its heap from the container's memory limit
  jvm_flags=(-XX:+UseSerialGC -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -XX:-UsePerfData
    -Djava.io.tmpdir=/tmp)
  launch=(-cp '/app/lib/*')
  cmd_json=''
  description="guard's example backend and worker; the container's command names the main class"
}

if [[ $name == guard-init ]]; then guard_init_app; else classpath_app; fi

# --- 4. layers: tar.gz, digest of the gzip, diff_id of the plain tar -------------------------
declare -a layer_digests layer_sizes layer_diffids
add_layer() { # dir [owner overrides...]
  local dir=$1 plain=$work/layer.tar gz
  ( cd "$dir" && find . -mindepth 1 | LC_ALL=C sort ) | sed 's|^\./||' >"$work/files.txt"
  tar --create --file "$plain" --directory "$dir" --no-recursion --numeric-owner \
    --mtime=@0 --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    --files-from "$work/files.txt"
  local diff_id; diff_id=$(sha256sum "$plain" | cut -d' ' -f1)
  gzip -n -6 -c "$plain" >"$work/layer.tar.gz"
  local digest; digest=$(sha256sum "$work/layer.tar.gz" | cut -d' ' -f1)
  mv "$work/layer.tar.gz" "$work/layout/blobs/sha256/$digest"
  rm -f "$plain"
  layer_digests+=("$digest"); layer_sizes+=("$(stat -c %s "$work/layout/blobs/sha256/$digest")")
  layer_diffids+=("$diff_id")
  log "layer $(basename "$dir"): sha256:$digest ($(stat -c %s "$work/layout/blobs/sha256/$digest") bytes)"
}
# ownership: everything root's, except the non-root user's HOME (/tmp is 1777). As non-root
# the chown fails and the layer carries the builder's uid: still runnable, not reproducible.
chown -R 0:0 "$os" "$work/runtime-layer" "$work/app" 2>/dev/null || log "not root: layers keep uid $(id -u)"
chown "$uid:$gid" "$os/home/nonroot" 2>/dev/null || true
add_layer "$os"
add_layer "$work/runtime-layer"
add_layer "$work/app"

# --- 5. config, manifest, index ---------------------------------------------------------------
entrypoint=$(printf '"%s",' /opt/java/bin/java "${jvm_flags[@]}" "${launch[@]}"); entrypoint=${entrypoint%,}
diffids=$(printf '"sha256:%s",' "${layer_diffids[@]}"); diffids=${diffids%,}
config=$(cat <<EOF
{"architecture":"amd64","os":"linux","created":"1970-01-01T00:00:00Z","config":{"User":"$uid:$gid","Env":["PATH=/opt/java/bin:/usr/bin:/bin","JAVA_HOME=/opt/java","HOME=/home/nonroot"],"Entrypoint":[$entrypoint],$cmd_json"WorkingDir":"/","Labels":{"org.opencontainers.image.title":"$name","org.opencontainers.image.version":"$version","org.opencontainers.image.description":"$description"}},"rootfs":{"type":"layers","diff_ids":[$diffids]},"history":[{"created":"1970-01-01T00:00:00Z","created_by":"guard build-image.sh: os files"},{"created":"1970-01-01T00:00:00Z","created_by":"guard build-image.sh: jlink runtime"},{"created":"1970-01-01T00:00:00Z","created_by":"guard build-image.sh: app jars"}]}
EOF
)
printf '%s' "$config" >"$work/config.json"
config_digest=$(sha256sum "$work/config.json" | cut -d' ' -f1)
config_size=$(stat -c %s "$work/config.json")
mv "$work/config.json" "$work/layout/blobs/sha256/$config_digest"

layers_json=""
for i in "${!layer_digests[@]}"; do
  layers_json+="{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"sha256:${layer_digests[$i]}\",\"size\":${layer_sizes[$i]}},"
done
layers_json=${layers_json%,}
manifest="{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"sha256:$config_digest\",\"size\":$config_size},\"layers\":[$layers_json]}"
printf '%s' "$manifest" >"$work/manifest.json"
manifest_digest=$(sha256sum "$work/manifest.json" | cut -d' ' -f1)
manifest_size=$(stat -c %s "$work/manifest.json")
mv "$work/manifest.json" "$work/layout/blobs/sha256/$manifest_digest"

printf '{"imageLayoutVersion":"1.0.0"}' >"$work/layout/oci-layout"
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"annotations":{"org.opencontainers.image.ref.name":"%s:%s","io.containerd.image.name":"%s:%s"}}]}' \
  "$manifest_digest" "$manifest_size" "$name" "$version" "$name" "$version" >"$work/layout/index.json"

( cd "$work/layout" && find . -mindepth 1 | LC_ALL=C sort | sed 's|^\./||' ) >"$work/files.txt"
tar --create --file "$out" --directory "$work/layout" --no-recursion --numeric-owner \
  --owner=0 --group=0 --mtime=@0 --format=ustar --files-from "$work/files.txt"
rm -f "$work/files.txt"
log "wrote $out ($(stat -c %s "$out") bytes), manifest sha256:$manifest_digest"
