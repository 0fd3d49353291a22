package dev.guard.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Just enough RESP to talk to a Redis without a client library: send one command, read one
 * reply as text ({@code +PONG}, {@code -LOADING ...}, {@code -NOAUTH ...}, {@code :1}, or a
 * bulk string's payload, an array's elements one per line). Lets the fixture see a raw {@code -LOADING} reply.
 */
final class Resp {

    private Resp() {}

    /**
     * Connects, sends AUTH first when {@code password} is non-null, then {@code command};
     * returns the reply to {@code command}. A failed AUTH is returned as the reply.
     */
    static String call(String host, int port, String password, int timeoutMillis, String... command)
            throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            if (password != null) {
                out.write(encode("AUTH", password));
                out.flush();
                String auth = readReply(in);
                if (auth.startsWith("-")) {
                    return auth;
                }
            }
            out.write(encode(command));
            out.flush();
            return readReply(in);
        }
    }

    /** {@link #call} (AUTH first when {@code password} is not null), never throwing: {@code "no connection: ..."} when nothing answers. */
    static String text(String host, int port, String password, String... command) {
        try {
            return call(host, port, password, 5000, command);
        } catch (IOException e) {
            return "no connection: " + e;
        }
    }

    static byte[] encode(String... args) {
        StringBuilder sb = new StringBuilder();
        sb.append('*').append(args.length).append("\r\n");
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            sb.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static String readReply(InputStream in) throws IOException {
        String line = readLine(in);
        if (line.startsWith("$")) {
            int length = Integer.parseInt(line.substring(1));
            if (length < 0) {
                return "(nil)";
            }
            byte[] payload = in.readNBytes(length + 2);
            return new String(payload, 0, Math.min(length, payload.length), StandardCharsets.UTF_8);
        }
        if (line.startsWith("*")) {
            int count = Integer.parseInt(line.substring(1));
            if (count < 0) {
                return "(nil)";
            }
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < count; i++) {
                all.append(i == 0 ? "" : "\n").append(readReply(in));
            }
            return all.toString();
        }
        return line;
    }

    static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after " + buffer.size() + " bytes of a reply");
            }
            if (previous == '\r' && b == '\n') {
                byte[] bytes = buffer.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            buffer.write(b);
            previous = b;
        }
    }
}
