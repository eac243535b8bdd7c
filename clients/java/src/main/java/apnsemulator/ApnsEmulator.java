package apnsemulator;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A running apns-emulator: one {@code serve --ephemeral} on free ports, pushed to over HTTP/2 and
 * TLS as a provider does ({@code java.net.http}), read and steered through its admin API. The
 * binary comes from {@code APNS_EMULATOR_BIN} or {@code PATH}, the container image from
 * {@code APNS_EMULATOR_IMAGE}. Its standard input is a pipe this JVM holds: when the JVM ends,
 * however it ends, the emulator ends too.
 */
public final class ApnsEmulator implements AutoCloseable {
    /** APNs' answer to a push. */
    public record PushResult(int status, String reason, String apnsId, String uniqueId, String detail,
            List<String> warnings, HttpClient.Version version) {}

    /** What a started emulator is asked for: serve's flags and a seed file. */
    public record Options(List<String> serve, Path seed) {
        public static Options defaults() {
            return new Options(List.of(), null);
        }
    }

    private final Launcher launcher;
    private final HttpClient provider;
    private final HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private ApnsEmulator(Launcher launcher) throws IOException {
        this.launcher = launcher;
        this.provider = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trusting(launcher.caPath))
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** Starts an emulator (the binary, or the image when APNS_EMULATOR_IMAGE names one). */
    public static ApnsEmulator start(Options options) throws IOException {
        return new ApnsEmulator(Launcher.start(options));
    }

    /** An SSL context trusting the CA in {@code caPath} alone. */
    public static SSLContext trusting(Path caPath) throws IOException {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int index = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(caPath)))) {
                store.setCertificateEntry("ca-" + index++, certificate);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (java.security.GeneralSecurityException error) {
            throw new IOException("cannot trust " + caPath + ": " + error, error);
        }
    }

    public String host() { return this.launcher.host; }
    public int port(String name) { return this.launcher.ports.get(name); }

    /** The admin token the admin API asks for (null when none); {@link #admin} sends it. */
    public String adminToken() { return this.launcher.adminToken; }
    public Path caPath() { return this.launcher.caPath; }
    public Path directory() { return this.launcher.directory; }
    public long pid() { return this.launcher.pid(); }
    /** The provider API's base URL, the sandbox's (the server certificate names localhost). */
    public String url() { return "https://localhost:" + this.port("http2"); }
    /** The sandbox endpoint (Apple: api.sandbox.push.apple.com), where a development setting points. */
    public String sandboxUrl() { return this.url(); }
    /** The production endpoint (Apple: api.push.apple.com), where a production setting points. */
    public String productionUrl() { return "https://localhost:" + this.port("productionHttp2"); }
    /** The base URL of {@code development} (or {@code sandbox}) or {@code production}. */
    public String urlFor(String environment) {
        return environment(environment).equals("production") ? this.productionUrl() : this.sandboxUrl();
    }

    /** {@code development} (or {@code sandbox}) or {@code production}; anything else is refused naming both. */
    static String environment(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "development", "sandbox" -> "development";
            case "production" -> "production";
            default -> throw new IllegalArgumentException("environment is development (the sandbox) or production, not " + name);
        };
    }
    /** Everything the emulator printed so far. */
    public String log() { return this.launcher.log(); }

    /** A push over HTTP/2 and TLS to the sandbox; {@code headers} are apns-topic, apns-push-type, authorization... */
    public PushResult push(String token, String payload, Map<String, String> headers) throws IOException, InterruptedException {
        return this.push(token, payload, headers, "development");
    }

    /**
     * A push to the endpoint of {@code environment}: {@code development} (the sandbox) or
     * {@code production}; a token of the other environment's build is 400 BadDeviceToken.
     */
    public PushResult push(String token, String payload, Map<String, String> headers, String environment)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.urlFor(environment) + "/3/device/" + token))
                .POST(HttpRequest.BodyPublishers.ofString(payload)).timeout(Duration.ofSeconds(30));
        headers.forEach(request::header);
        HttpResponse<String> answer = this.provider.send(request.build(), HttpResponse.BodyHandlers.ofString());
        String reason = null;
        if (!answer.body().isEmpty() && Json.parse(answer.body()) instanceof Map<?, ?> body) reason = (String) body.get("reason");
        return new PushResult(answer.statusCode(), reason, answer.headers().firstValue("apns-id").orElse(null),
                answer.headers().firstValue("apns-unique-id").orElse(null),
                answer.headers().firstValue("apns-emulator-detail").orElse(null),
                answer.headers().allValues("apns-emulator-warning"), answer.version());
    }

    /** One admin API request; the parsed answer, or an {@link IllegalStateException} naming what was refused. */
    public Object admin(String method, String pathAndQuery, Object body, int expect) throws IOException, InterruptedException {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(Json.write(body));
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://" + this.host() + ":" + this.port("admin") + pathAndQuery))
                .method(method, publisher).header("content-type", "application/json");
        if (this.adminToken() != null) builder.header("authorization", "Bearer " + this.adminToken());
        HttpRequest request = builder.build();
        HttpResponse<String> answer = this.admin.send(request, HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != expect) {
            throw new IllegalStateException(method + " " + pathAndQuery + ": " + answer.statusCode() + " " + answer.body());
        }
        return answer.body().isEmpty() ? null : Json.parse(answer.body());
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> object(String method, String path, Object body, int expect) throws IOException, InterruptedException {
        return (Map<String, Object>) this.admin(method, path, body, expect);
    }

    /** A token issued for {@code topic}, as a device registering gets: a development (debug) build's. */
    public String registerDevice(String topic) throws IOException, InterruptedException {
        return (String) this.object("POST", "/api/v1/devices", Map.of("topic", topic), 201).get("token");
    }

    /**
     * A token issued for {@code topic} to a build of {@code environment}: {@code development} (a
     * debug build) or {@code production} (TestFlight, the App Store), whose endpoint alone takes it.
     */
    public String registerDevice(String topic, String environment) throws IOException, InterruptedException {
        Map<String, Object> body = Map.of("topic", topic, "environment", environment(environment));
        return (String) this.object("POST", "/api/v1/devices", body, 201).get("token");
    }

    /**
     * The Push Notifications Console's token validation: known, environment, endpoint, topic,
     * deviceId, registered, registeredAt, unregisteredAt, queued, verdict.
     */
    public Map<String, Object> checkToken(String token) throws IOException, InterruptedException {
        return this.object("GET", "/api/v1/tokens/" + token, null, 200);
    }

    /** The app's settings and state behind a token. */
    public Map<String, Object> app(String token) throws IOException, InterruptedException {
        return this.object("GET", "/api/v1/devices/" + token + "/app", null, 200);
    }

    /** Changes the app as the user would in Settings: authorization, appState, categories... */
    public Map<String, Object> setApp(String token, Map<String, Object> fields) throws IOException, InterruptedException {
        return this.object("PUT", "/api/v1/devices/" + token + "/app", fields, 200);
    }

    /** The Focus of the device behind a token: {@code deviceId, active, allowedApps, timeSensitive, apps}. */
    public Map<String, Object> focus(String token) throws IOException, InterruptedException {
        return this.object("GET", focusPath(token), null, 200);
    }

    /**
     * Turns a Focus on for the whole device behind a token ({@code active} null ends it): what it
     * does not allow is delivered quietly, held by {@code focus}; time-sensitive notifications
     * break through while {@code timeSensitive} is on.
     */
    public Map<String, Object> setFocus(String token, String active, List<String> allowedApps, boolean timeSensitive)
            throws IOException, InterruptedException {
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("active", active);
        body.put("allowedApps", allowedApps);
        body.put("timeSensitive", timeSensitive);
        return this.object("PUT", focusPath(token), body, 200);
    }

    /**
     * The app's notification service extension, for alerts with {@code mutable-content: 1}: a
     * {@code command} run with the content as JSON on standard input (it prints the content to
     * show), else a {@code url} the content is posted to; {@code timeout} on the emulator's clock
     * (null: 30s). With neither, the app has none. Each presentation says what it did in
     * {@code serviceExtension}.
     */
    public Map<String, Object> setServiceExtension(String token, String command, String url, String timeout)
            throws IOException, InterruptedException {
        Map<String, Object> extension = null;
        if (command != null || url != null) {
            extension = new java.util.HashMap<>();
            extension.put(command != null ? "command" : "url", command != null ? command : url);
            if (timeout != null) extension.put("timeout", timeout);
        }
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("serviceExtension", extension);
        return this.setApp(token, body);
    }

    /** How the phone presented {@code uniqueId}, once it has (a service extension may take a while). */
    public Map<String, Object> presentation(String uniqueId, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<String, Object> item = this.object("GET", "/api/v1/notifications/" + uniqueId, null, 200);
            Object presentation = item.get("presentation");
            if (presentation instanceof Map<?, ?> map) {
                @SuppressWarnings("unchecked")
                Map<String, Object> shown = (Map<String, Object>) map;
                return shown;
            }
            if (System.nanoTime() >= deadline) {
                throw new IOException(uniqueId + " was not presented within " + timeout + ": " + item.get("phoneOutcome"));
            }
            Thread.sleep(50);
        }
    }

    private String focusPath(String token) throws IOException, InterruptedException {
        String deviceId = (String) this.app(token).get("deviceId");
        return "/api/v1/devices/" + java.net.URLEncoder.encode(deviceId, java.nio.charset.StandardCharsets.UTF_8) + "/focus";
    }

    /** Notification Center, oldest first. */
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> delivered(String token) throws IOException, InterruptedException {
        return (List<Map<String, Object>>) this.object("GET", "/api/v1/devices/" + token + "/delivered", null, 200).get("items");
    }

    /** The journal, newest first, filtered by token, topic, status, pushType. */
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> notifications(Map<String, String> filter) throws IOException, InterruptedException {
        return (List<Map<String, Object>>) this.object("GET", "/api/v1/notifications" + query(filter), null, 200).get("items");
    }

    /**
     * The first notification matching {@code filter} within {@code timeout}; an AssertionError listing
     * the near misses (what arrived instead, and why each did not match).
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> waitFor(Map<String, String> filter, Duration timeout) throws IOException, InterruptedException {
        Map<String, String> parameters = new LinkedHashMap<>(filter);
        parameters.put("timeout", timeout.toMillis() + "ms");
        try {
            return this.object("GET", "/api/v1/notifications/wait" + query(parameters), null, 200);
        } catch (IllegalStateException refused) {
            if (!refused.getMessage().contains(": 408 ")) throw refused;
            Map<String, Object> missed = (Map<String, Object>) Json.parse(refused.getMessage().substring(refused.getMessage().indexOf(": 408 ") + 6));
            StringBuilder message = new StringBuilder("no notification with " + filter + " within " + timeout + ": " + missed.get("error"));
            List<Object> misses = (List<Object>) missed.getOrDefault("nearMisses", List.of());
            if (!misses.isEmpty()) message.append("\nnear misses:");
            for (Object item : misses) {
                Map<String, Object> miss = (Map<String, Object>) item;
                String token = String.valueOf(miss.get("token"));
                message.append("\n  ").append(miss.get("id")).append(": ").append(miss.get("status")).append(" to ").append(miss.get("topic"))
                        .append(" / ").append(token.substring(0, Math.min(12, token.length()))).append(": ")
                        .append(String.join("; ", (List<String>) (List<?>) miss.getOrDefault("failed", List.of())));
            }
            throw new AssertionError(message.toString());
        }
    }

    /** Adds a fault rule: {@code addFault(Map.of("type", "respond", "reason", "TooManyRequests"), Map.of("topic", t), 1)}. */
    public Map<String, Object> addFault(Object action, Map<String, Object> match, Integer times) throws IOException, InterruptedException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("action", action);
        body.put("match", match);
        if (times != null) body.put("times", times);
        return this.object("POST", "/api/v1/faults", body, 201);
    }

    /** Moves the emulator's clock forward ("90m", "2h"); answers the offset in milliseconds. */
    public long advanceClock(String by) throws IOException, InterruptedException {
        return ((Number) this.object("POST", "/api/v1/clock", Map.of("advance", by), 200).get("offsetMs")).longValue();
    }

    /**
     * A Home Screen web app ({@code kind} "safari": a page in Safari) subscribing with the
     * application server's VAPID public key (base64url), as {@code PushManager.subscribe} does, on
     * a new device. Its {@code subscription} is what the page would send your server.
     */
    @SuppressWarnings("unchecked")
    public WebPush.WebApp subscribeWebApp(String applicationServerKey, String origin, String kind) throws IOException, InterruptedException {
        String host = this.registerDevice("com.example.browser");
        Map<String, Object> made = this.object("POST", "/api/v1/devices/" + host + "/web-apps", Map.of("origin", origin, "kind", kind,
                "permission", "granted", "applicationServerKey", applicationServerKey), 201);
        Map<String, Object> subscription = (Map<String, Object>) made.get("subscription");
        Map<String, Object> keys = (Map<String, Object>) subscription.get("keys");
        // The endpoint as this machine reaches the service (a container's port is published elsewhere).
        String endpoint = "https://" + this.host() + ":" + this.port("webPush") + URI.create((String) subscription.get("endpoint")).getRawPath();
        return new WebPush.WebApp((String) made.get("id"), origin, kind, new WebPush.Subscription(endpoint, (String) keys.get("p256dh"),
                (String) keys.get("auth")), (String) made.get("token"), host, made);
    }

    /** Sends {@code message} to a subscription as an application server does, trusting this emulator's CA. */
    public WebPush.Result sendWebPush(WebPush.Subscription subscription, String message, WebPush.Options options)
            throws IOException, InterruptedException {
        return WebPush.send(this.provider, subscription, message.getBytes(StandardCharsets.UTF_8), options);
    }

    /** Every web push {@code app} received, newest first, once the browser handled them; waits up to {@code timeout} for {@code atLeast}. */
    @SuppressWarnings("unchecked")
    public List<WebPush.Received> webPushes(WebPush.WebApp app, int atLeast, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Map<String, Object>> items = (List<Map<String, Object>>) this.object("GET", "/api/v1/notifications"
                    + query(Map.of("token", app.token(), "interface", "webpush", "limit", "100")), null, 200).get("items");
            List<WebPush.Received> handled = new ArrayList<>();
            for (Map<String, Object> item : items) {
                Map<String, Object> presentation = (Map<String, Object>) item.get("presentation");
                Map<String, Object> web = presentation == null ? null : (Map<String, Object>) presentation.get("webPush");
                if (web == null) continue;
                Number badge = (Number) web.get("appBadge");
                handled.add(new WebPush.Received((String) item.get("uniqueId"), (String) web.get("outcome"), (String) web.get("message"),
                        Boolean.TRUE.equals(presentation.get("shown")), (String) presentation.get("title"), (String) presentation.get("body"),
                        (String) web.get("navigate"), badge == null ? null : badge.intValue(), (String) web.get("vapidSubject"), item));
            }
            if (handled.size() >= atLeast) return handled;
            if (System.nanoTime() > deadline) {
                throw new AssertionError(app.origin() + " (" + app.id() + ") received " + handled.size() + " web pushes within " + timeout
                        + ", not " + atLeast);
            }
            Thread.sleep(50);
        }
    }

    /** The oldest web push {@code app} received that the browser has handled, waiting up to {@code timeout}. */
    public WebPush.Received webPush(WebPush.WebApp app, Duration timeout) throws IOException, InterruptedException {
        List<WebPush.Received> handled = this.webPushes(app, 1, timeout);
        return handled.get(handled.size() - 1);
    }

    /** The web app's service worker calls {@code showNotification(title, {body})} for the oldest push waiting for one. */
    public Map<String, Object> showWebNotification(WebPush.WebApp app, String title, String body) throws IOException, InterruptedException {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("title", title);
        if (body != null) document.put("body", body);
        return this.object("POST", "/api/v1/devices/" + app.hostToken() + "/web-apps/" + app.id() + "/show", document, 201);
    }

    /** The providers the HTTP/2 provider API has seen (a provider-token key, a certificate, a peer), the one seen last first. */
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> providers() throws IOException, InterruptedException {
        return (List<Map<String, Object>>) this.object("GET", "/api/v1/providers", null, 200).get("items");
    }

    /** A provider's report card (GET /api/v1/providers/&lt;id&gt;/report); {@code provider} null: the one seen last. */
    public Map<String, Object> providerReport(String provider) throws IOException, InterruptedException {
        String id = provider;
        if (id == null) {
            List<Map<String, Object>> seen = this.providers();
            if (seen.isEmpty()) throw new IllegalStateException("no provider has sent a request to the HTTP/2 provider API yet");
            id = (String) seen.get(0).get("id");
        }
        return this.object("GET", "/api/v1/providers/" + java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8) + "/report", null, 200);
    }

    /**
     * Throws an {@link AssertionError} naming each failed check of the provider's report card (of
     * {@code checks}, when any are given) with its evidence and source; the report when none failed.
     */
    public Map<String, Object> assertProviderBehaves(String provider, String... checks) throws IOException, InterruptedException {
        Map<String, Object> report = this.providerReport(provider);
        List<String> wanted = List.of(checks);
        StringBuilder failures = new StringBuilder();
        int failed = 0;
        for (Object item : (List<?>) report.get("checks")) {
            Map<?, ?> check = (Map<?, ?>) item;
            if (!"fail".equals(check.get("verdict")) || (!wanted.isEmpty() && !wanted.contains(check.get("id")))) continue;
            failed += 1;
            Map<?, ?> evidence = (Map<?, ?>) check.get("evidence");
            List<?> ids = (List<?>) evidence.get("apnsIds");
            failures.append("\n  ").append(check.get("id")).append(": ").append(evidence.get("summary"));
            if (!ids.isEmpty()) failures.append(" (apns-ids: ").append(ids.subList(0, Math.min(5, ids.size()))).append(")");
            failures.append("\n    source: ").append(check.get("source"));
        }
        if (failed > 0) {
            throw new AssertionError(((Map<?, ?>) report.get("provider")).get("id") + " fails " + failed + " check(s) of its report card:" + failures);
        }
        return report;
    }

    /** Empties queues, journal and feedback, removes fault rules, forgets the providers seen, returns the clock to real time. */
    public void reset(boolean devices) throws IOException, InterruptedException {
        this.admin("POST", "/api/v1/reset", Map.of("devices", devices), 200);
    }

    /** The world as a seed document ({@code Options.seed} of it starts the same world). */
    public Map<String, Object> export() throws IOException, InterruptedException {
        return this.object("POST", "/api/v1/export", null, 200);
    }

    /** A signing key the running emulator trusts at once: its id and its .p8 file. */
    public record ProviderKey(String keyId, String teamId, Path p8) {}

    /** Makes a provider-token key ({@code keys create}) the running emulator trusts at once. */
    public ProviderKey createKey(String teamId, String... topics) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("keys", "create", "--team-id", teamId, "--keys", this.launcher.keysDirectory,
                "--out", this.launcher.credsDirectory()));
        if (topics.length > 0) arguments.addAll(List.of("--topics", String.join(",", topics)));
        String said = this.launcher.command(arguments);
        for (String line : said.split("\n")) {
            if (!line.startsWith("private key: ")) continue;
            String written = line.split("\\s+")[2];
            String name = Path.of(written).getFileName().toString();
            Path local = this.launcher.fetch(written, this.launcher.directory.resolve(name));
            return new ProviderKey(name.substring("AuthKey_".length(), name.length() - ".p8".length()), teamId, local);
        }
        throw new IllegalStateException("keys create did not say where the key is: " + said);
    }

    static String query(Map<String, String> parameters) {
        StringBuilder out = new StringBuilder();
        parameters.forEach((name, value) -> out.append(out.length() == 0 ? '?' : '&').append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return out.toString();
    }

    /** Stops the emulator: gracefully, then forcibly after 10 s. */
    @Override
    public void close() {
        this.launcher.stop();
    }

    /** Removes the emulator's directory (certificates, keys, log). */
    public void remove() {
        this.launcher.remove();
    }
}
