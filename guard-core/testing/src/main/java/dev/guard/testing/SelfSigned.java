package dev.guard.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A keypair and its self-signed certificate for 127.0.0.1 and localhost, made by the JDK's own
 * {@code keytool} for a test's TLS server: the PKCS12 keystore, the certificate as PEM (what a
 * client is given as its CA, or not), and the server's {@link SSLContext}.
 */
public record SelfSigned(Path keystore, Path pem) {

    private static final char[] PASSWORD = "changeit".toCharArray();

    /** Makes {@code <name>.p12} and {@code <name>.crt} in {@code dir}, the certificate's CN {@code cn}. */
    public static SelfSigned make(Path dir, String name, String cn) throws IOException {
        Files.createDirectories(dir);
        Path keystore = dir.resolve(name + ".p12");
        Path pem = dir.resolve(name + ".crt");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Files.deleteIfExists(keystore);
        run(List.of(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=" + cn, "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", keystore.toString(),
                "-storetype", "PKCS12", "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD)));
        run(List.of(keytool, "-exportcert", "-rfc", "-alias", "server", "-keystore", keystore.toString(), "-storepass",
                new String(PASSWORD), "-file", pem.toString()));
        return new SelfSigned(keystore, pem);
    }

    /** A server's TLS context presenting this certificate. */
    public SSLContext serverContext() throws IOException {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keystore)) {
                ks.load(in, PASSWORD);
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(kmf.getKeyManagers(), null, null);
            return tls;
        } catch (GeneralSecurityException e) {
            throw new IOException("the test certificate in " + keystore + " cannot be used: " + e, e);
        }
    }

    private static void run(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("keytool (from the JDK at " + System.getProperty("java.home") + ") could not make a"
                        + " test certificate: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool ran", e);
        }
    }
}
