package dev.guard.init;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.testing.BoundedRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Test helper: the OCI image tarball guard-init's build writes, read the way a container runtime
 * reads it (index.json, manifest, config, layers in order), unpacked into a root filesystem.
 */
final class OciImage {
    static final ObjectMapper JSON = new ObjectMapper();

    final Path tarball;
    final Path layout;
    final JsonNode index;
    final JsonNode manifest;
    final JsonNode config;

    private OciImage(Path tarball, Path layout) throws IOException {
        this.tarball = tarball;
        this.layout = layout;
        this.index = JSON.readTree(layout.resolve("index.json").toFile());
        this.manifest = JSON.readTree(blob(index.path("manifests").path(0).path("digest").asText()).toFile());
        this.config = JSON.readTree(blob(manifest.path("config").path("digest").asText()).toFile());
    }

    /** The build directory Maven passes as {@code guard.build.dir}; fails with how to provide it. */
    static Path buildDir() {
        String dir = System.getProperty("guard.build.dir");
        if (dir == null) {
            throw new IllegalStateException("system property guard.build.dir is not set: run this test through Maven "
                    + "(./mvnw -pl guard-init -am verify), which sets it to guard-init/target");
        }
        return Path.of(dir);
    }

    /** Opens target/guard-init-image.tar, unpacking the layout next to it. */
    static OciImage open(Path buildDir) throws IOException {
        Path tarball = buildDir.resolve("guard-init-image.tar");
        if (!Files.isRegularFile(tarball)) {
            throw new IllegalStateException(tarball + " does not exist: `./mvnw -pl guard-init -am package` builds it "
                    + "(src/image/build-image.sh; needs a JDK with jmods, ldd, tar, gzip)");
        }
        Path layout = buildDir.resolve("it-image-layout");
        deleteTree(layout);
        Files.createDirectories(layout);
        sh(List.of("tar", "-xf", tarball.toString(), "-C", layout.toString()));
        return new OciImage(tarball, layout);
    }

    Path blob(String digest) {
        if (!digest.startsWith("sha256:")) {
            throw new IllegalStateException("not a sha256 digest: '" + digest + "'");
        }
        return layout.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
    }

    List<String> entrypoint() {
        List<String> out = new ArrayList<>();
        config.path("config").path("Entrypoint").forEach(n -> out.add(n.asText()));
        return out;
    }

    String user() {
        return config.path("config").path("User").asText();
    }

    List<String> env() {
        List<String> out = new ArrayList<>();
        config.path("config").path("Env").forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Unpacks the layers, in manifest order, into {@code rootfs} (emptied first). */
    Path unpack(Path rootfs) throws IOException {
        deleteTree(rootfs);
        Files.createDirectories(rootfs);
        for (JsonNode layer : manifest.path("layers")) {
            Path gz = blob(layer.path("digest").asText());
            sh(List.of("tar", "--numeric-owner", "-xzpf", gz.toString(), "-C", rootfs.toString()));
        }
        return rootfs;
    }

    static String sha256(Path file, boolean gunzip) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
                InputStream in = gunzip ? new GZIPInputStream(raw) : raw) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return "sha256:" + HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Hang guard for one tar run (the largest layer unpacks in seconds even on a loaded machine). */
    static final Duration TAR_BOUND = Duration.ofSeconds(300);

    static void sh(List<String> cmd) throws IOException {
        try {
            BoundedRun.Result r = BoundedRun.run(cmd, TAR_BOUND);
            if (r.exit() != 0) {
                throw new IOException(String.join(" ", cmd) + " exited with " + r.exit() + ": " + r.output());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + cmd, e);
        }
    }

    /**
     * Deletes a tree, refusing when anything is still mounted below it (the runs mount /dev and
     * /proc inside their own mount namespace, so nothing should be; deleting through a bind
     * mount of /dev would be a disaster).
     */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        String prefix = dir.toRealPath().toString() + "/";
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = line.split(" ");
            if (f.length > 4 && (f[4] + "/").startsWith(prefix)) {
                throw new IllegalStateException("refusing to delete " + dir + ": " + f[4] + " is mounted; umount it");
            }
        }
        try (var walk = Files.walk(dir)) {
            walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
