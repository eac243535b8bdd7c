package apnsemulator;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** How the emulator runs: the binary as a child process, or the image through podman or docker. */
final class Launcher {
    static final Map<String, Integer> PORTS = Map.of("http2", 2197, "admin", 8197, "device", 5223, "gateway", 2195,
            "feedback", 2196, "channels", 2198, "webPush", 2199, "productionHttp2", 2297);

    final Path directory;
    final Path logPath;
    Path caPath;
    String keysDirectory;
    String host = "127.0.0.1";
    Map<String, Integer> ports = new LinkedHashMap<>();
    /** The admin token the admin API asks for; null when none. */
    String adminToken;
    private String binary;
    private String cli;
    private String container;
    private Process process;

    private Launcher(Path directory) {
        this.directory = directory;
        this.logPath = directory.resolve("serve.log");
    }

    static Launcher start(ApnsEmulator.Options options) throws IOException {
        Launcher launcher = new Launcher(Files.createTempDirectory("apns-emulator-java-"));
        String image = System.getenv("APNS_EMULATOR_IMAGE");
        try {
            if (image != null && !image.isEmpty()) launcher.startContainer(image, options);
            else launcher.startBinary(findBinary(), options);
        } catch (IOException | RuntimeException error) {
            launcher.stop();
            throw error;
        }
        return launcher;
    }

    static String findBinary() throws IOException {
        String given = System.getenv("APNS_EMULATOR_BIN");
        if (given != null && !given.isEmpty()) {
            if (!Files.isExecutable(Path.of(given))) throw new IOException("APNS_EMULATOR_BIN=" + given + " is not an executable file");
            return given;
        }
        for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(folder.isEmpty() ? "." : folder, "apns-emulator");
            if (Files.isExecutable(candidate)) return candidate.toString();
        }
        throw new IOException("apns-emulator is not on PATH: install it (the README's first line), set APNS_EMULATOR_BIN, "
                + "or set APNS_EMULATOR_IMAGE to run the container image");
    }

    private void spawn(List<String> command) throws IOException {
        // Standard input stays a pipe this JVM holds (serve --exit-on-stdin-close).
        ProcessBuilder builder = new ProcessBuilder(command).directory(this.directory.toFile()).redirectErrorStream(true)
                .redirectOutput(this.logPath.toFile());
        if (this.container != null) builder.environment().put("APNS_EMULATOR_ADMIN_TOKEN", this.adminToken);
        this.process = builder.start();
    }

    /** serve's flags without --admin-token, whose value becomes this launcher's token. */
    private List<String> takeToken(List<String> serve) {
        List<String> rest = new ArrayList<>();
        for (int index = 0; index < serve.size(); index++) {
            String flag = serve.get(index);
            if (flag.equals("--admin-token") && index + 1 < serve.size()) this.adminToken = serve.get(++index);
            else if (flag.startsWith("--admin-token=")) this.adminToken = flag.substring("--admin-token=".length());
            else rest.add(flag);
        }
        return rest;
    }

    private void startBinary(String binary, ApnsEmulator.Options options) throws IOException {
        this.binary = binary;
        this.caPath = this.directory.resolve("certs/ca.pem");
        this.keysDirectory = this.directory.resolve("keys").toString();
        Path portsFile = this.directory.resolve("ports.json");
        List<String> command = new ArrayList<>(List.of(binary, "serve", "--ephemeral", "--exit-on-stdin-close", "--ports-file",
                portsFile.toString(), "--certs-dir", this.directory.resolve("certs").toString(), "--keys", this.keysDirectory));
        for (String name : PORTS.keySet()) command.addAll(List.of("--" + name.replace("webPush", "web-push").replace("productionHttp2", "production-http2") + "-port", "0"));
        if (options.seed() != null) command.addAll(List.of("--seed", options.seed().toAbsolutePath().toString()));
        command.addAll(options.serve());
        this.spawn(command);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(portsFile)) {
            if (!this.process.isAlive()) throw new IOException("apns-emulator exited (" + this.process.exitValue() + ") before listening:\n" + this.log());
            if (System.nanoTime() > deadline) throw new IOException("apns-emulator did not listen within 30 s:\n" + this.log());
            sleep(20);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> found = (Map<String, Object>) Json.parse(Files.readString(portsFile));
        this.host = (String) found.get("host");
        for (String name : PORTS.keySet()) this.ports.put(name, ((Number) found.get(name)).intValue());
        // The one given (--admin-token), or the one serve made beyond loopback.
        this.adminToken = (String) found.get("adminToken");
    }

    private void startContainer(String image, ApnsEmulator.Options options) throws IOException {
        this.cli = System.getenv().getOrDefault("APNS_EMULATOR_CONTAINER_CLI", "podman");
        this.container = "apns-emulator-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        this.caPath = this.directory.resolve("ca.pem");
        this.keysDirectory = "/data/keys";
        List<String> command = new ArrayList<>(List.of(this.cli, "run", "-i", "--rm", "--name", this.container));
        for (int port : PORTS.values()) command.addAll(List.of("-p", "127.0.0.1::" + port));
        if (options.seed() != null) {
            // A copy anyone may read: the image runs as an ordinary user, and a seed may be private to this one.
            Path seed = this.directory.resolve("seed-for-container");
            Files.copy(options.seed(), seed);
            Files.setPosixFilePermissions(seed, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            command.addAll(List.of("-v", seed + ":/seed/seed.json:ro"));
        }
        // The image listens on every interface, so its admin API asks for a token: the test's own
        // (--admin-token), else one made here, given through the environment.
        List<String> serve = this.takeToken(options.serve());
        if (this.adminToken == null) {
            byte[] random = new byte[32];
            new java.security.SecureRandom().nextBytes(random);
            this.adminToken = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        }
        command.addAll(List.of("-e", "APNS_EMULATOR_ADMIN_TOKEN"));
        command.addAll(List.of(image, "serve", "--ephemeral", "--exit-on-stdin-close", "--keys", this.keysDirectory));
        if (options.seed() != null) command.addAll(List.of("--seed", "/seed/seed.json"));
        command.addAll(serve);
        this.spawn(command);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Pattern published = Pattern.compile("^(\\d+)/tcp -> .*:(\\d+)$");
        while (true) {
            if (!this.process.isAlive()) throw new IOException("the container ended before listening:\n" + this.log());
            String said = this.run(List.of(this.cli, "port", this.container));
            Map<Integer, Integer> outside = new LinkedHashMap<>();
            for (String line : said.split("\n")) {
                Matcher match = published.matcher(line.trim());
                if (match.matches()) outside.put(Integer.parseInt(match.group(1)), Integer.parseInt(match.group(2)));
            }
            PORTS.forEach((name, port) -> this.ports.put(name, outside.getOrDefault(port, 0)));
            if (this.ports.get("admin") > 0 && this.fetchCA()) return;
            if (System.nanoTime() > deadline) throw new IOException("the container did not answer within 60 s:\n" + this.log());
            sleep(100);
        }
    }

    private boolean fetchCA() {
        try {
            HttpResponse<byte[]> answer = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://" + this.host + ":" + this.ports.get("admin") + "/ca.pem")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (answer.statusCode() != 200) return false;
            Files.write(this.caPath, answer.body());
            return true;
        } catch (IOException | InterruptedException error) {
            return false;
        }
    }

    long pid() {
        return this.process == null ? -1 : this.process.pid();
    }

    String log() {
        try {
            return Files.readString(this.logPath, StandardCharsets.UTF_8);
        } catch (IOException error) {
            return "";
        }
    }

    String credsDirectory() {
        return this.cli == null ? this.directory.resolve("creds").toString() : "/data/creds";
    }

    /** Another apns-emulator command (keys create) beside the server; what it printed. */
    String command(List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>(this.cli == null ? List.of(this.binary) : List.of(this.cli, "exec", this.container, "apns-emulator"));
        command.addAll(arguments);
        return this.run(command);
    }

    Path fetch(String path, Path local) throws IOException {
        if (this.cli == null) return Path.of(path);
        this.run(List.of(this.cli, "cp", this.container + ":" + path, local.toString()));
        return local;
    }

    private String run(List<String> command) throws IOException {
        Process run = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (InputStream out = run.getInputStream()) {
            String said = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            run.waitFor();
            return said;
        } catch (InterruptedException error) {
            Thread.currentThread().interrupt();
            throw new IOException(error);
        }
    }

    void stop() {
        if (this.process != null && this.process.isAlive()) {
            try {
                if (this.cli != null) this.run(List.of(this.cli, "stop", "-t", "10", this.container));
                else this.process.destroy();
                if (!this.process.waitFor(10, TimeUnit.SECONDS)) this.process.destroyForcibly().waitFor();
            } catch (IOException | InterruptedException error) {
                this.process.destroyForcibly();
            }
        }
    }

    /** Removes the emulator's directory (certificates, keys, log). */
    void remove() {
        try (Stream<Path> paths = Files.walk(this.directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException error) {
            // Left behind in the temporary directory.
        }
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException error) {
            Thread.currentThread().interrupt();
            throw new IOException(error);
        }
    }
}
