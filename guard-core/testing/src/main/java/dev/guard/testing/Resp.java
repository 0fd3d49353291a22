package dev.guard.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough RESP to talk to a Redis without a client library: send one command, read one
 * reply as text ({@code +PONG}, {@code -LOADING ...}, {@code -NOAUTH ...}, {@code :1}, or a
 * bulk string's payload, an array's elements one per line). Lets the fixture see a raw {@code -LOADING} reply.
 * {@link #strings} is public: the cold-start harness reads a stack's result and dead-letter keys with it.
 */
public final class Resp {

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

    /**
     * Sends {@code command} to the Redis at {@code uri} ({@code redis://[[user]:password@]host[:port][/db]})
     * and returns the reply's elements: an array's elements (a list's entries, a hash's fields), a
     * bulk or simple string as one element, none for nil.
     *
     * @throws IOException when nothing answers, or Redis answers an error (its text, e.g.
     *     {@code -LOADING Redis is loading the dataset in memory}, is the message)
     */
    public static List<String> strings(URI uri, int timeoutMillis, String... command) throws IOException {
        String host = uri.getHost() == null ? "127.0.0.1" : uri.getHost();
        int port = uri.getPort() < 0 ? 6379 : uri.getPort();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            String userInfo = uri.getRawUserInfo();
            if (userInfo != null && !userInfo.isEmpty()) {
                int colon = userInfo.indexOf(':');
                String user = colon < 0 ? "" : decode(userInfo.substring(0, colon));
                String password = decode(colon < 0 ? userInfo : userInfo.substring(colon + 1));
                expectOk(in, out, user.isEmpty() ? new String[] {"AUTH", password} : new String[] {"AUTH", user, password},
                        "AUTH");
            }
            String path = uri.getPath() == null ? "" : uri.getPath().replace("/", "");
            if (!path.isEmpty() && !path.equals("0")) {
                expectOk(in, out, new String[] {"SELECT", path}, "SELECT " + path);
            }
            out.write(encode(command));
            out.flush();
            List<String> elements = new ArrayList<>();
            String first = readLine(in);
            if (first.startsWith("-")) {
                throw new IOException(first.substring(1));
            }
            if (first.startsWith("*")) {
                int count = Integer.parseInt(first.substring(1));
                for (int i = 0; i < count; i++) {
                    elements.add(readReply(in));
                }
            } else if (first.startsWith("$")) {
                int length = Integer.parseInt(first.substring(1));
                if (length >= 0) {
                    byte[] payload = in.readNBytes(length + 2);
                    elements.add(new String(payload, 0, Math.min(length, payload.length), StandardCharsets.UTF_8));
                }
            } else {
                elements.add(first.substring(1));
            }
            return elements;
        }
    }

    private static void expectOk(InputStream in, OutputStream out, String[] command, String what) throws IOException {
        out.write(encode(command));
        out.flush();
        String reply = readReply(in);
        if (reply.startsWith("-")) {
            // the error names the failure (WRONGPASS, NOAUTH...), never the password
            throw new IOException(what.startsWith("AUTH") ? "AUTH failed: " + reply.substring(1) : what + ": " + reply.substring(1));
        }
    }

    private static String decode(String s) {
        // as lettuce decodes a redis:// URI's user info, and RedisServer.uri() encodes it: '+' is a space
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
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
