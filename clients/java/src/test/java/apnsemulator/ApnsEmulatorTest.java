package apnsemulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.reporting.ReportEntry;

/**
 * The extension as a Java provider's test uses it: the provider's own java.net.http client over
 * HTTP/2 with TLS trusting the emulator's CA, assertions on what the phone shows and what APNs
 * refused (Apple's "Handling notification responses from APNs"; ES256 provider tokens as in
 * "Establishing a token-based connection to APNs").
 */
@ExtendWith(ApnsEmulatorExtension.class)
class ApnsEmulatorTest {
    static final String TOPIC = "com.example.javashop";

    /** A push as a Java provider writes it: java.net.http, HTTP/2, TLS trusting the emulator's CA. */
    static HttpResponse<String> providerPush(ApnsEmulator apns, String token, String payload, String... headers) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ApnsEmulator.trusting(apns.caPath())).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(apns.url() + "/3/device/" + token))
                .header("apns-topic", TOPIC).header("apns-push-type", "alert").POST(HttpRequest.BodyPublishers.ofString(payload));
        for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String reason(HttpResponse<String> answer) {
        return answer.body().isEmpty() ? null : (String) ((Map<?, ?>) Json.parse(answer.body())).get("reason");
    }

    /**
     * Web Push as Apple's push service takes it ("Sending web push notifications in web apps and
     * browsers"; RFC 8030, 8291, 8292; WebKit's "Meet Declarative Web Push"): the extension subscribes a
     * web app, the test plays the application server with {@link WebPush}, and reads the phone.
     */
    @Test
    void aWebPushTheServerSentReachesTheWebApp(ApnsEmulator apns) throws Exception {
        java.security.KeyPair vapid = WebPush.vapidKeys();
        WebPush.WebApp app = apns.subscribeWebApp(WebPush.publicKey(vapid), "https://shop.example", "homeScreen");
        assertEquals("https://" + apns.host() + ":" + apns.port("webPush") + "/push/" + app.id(), app.subscription().endpoint());
        String message = "{\"web_push\": 8030, \"notification\": {\"title\": \"Back in stock\", \"navigate\": \"https://shop.example/p/1\"}, \"app_badge\": 2}";
        // TTL 0, as some libraries default to: the phone is here, so it is shown at once (issue 52).
        WebPush.Result sent = apns.sendWebPush(app.subscription(), message, new WebPush.Options(vapid, "mailto:ops@shop.example", 0, "high", null));
        assertEquals(201, sent.status(), String.valueOf(sent));
        assertTrue(sent.location().endsWith("/message/" + sent.uniqueId()), sent.location());
        WebPush.Received received = apns.webPush(app, Duration.ofSeconds(5));
        assertEquals(List.of("declarative", true, "Back in stock", "https://shop.example/p/1", 2, message, "mailto:ops@shop.example", sent.uniqueId()),
                java.util.Arrays.asList(received.outcome(), received.shown(), received.title(), received.navigate(), received.appBadge(),
                        received.message(), received.vapidSubject(), received.uniqueId()));
        assertEquals("delivered", apns.notifications(Map.of("token", app.token())).get(0).get("status"));

        // A page in Safari: its service worker shows the notification (POST .../show).
        WebPush.WebApp page = apns.subscribeWebApp(WebPush.publicKey(vapid), "https://news.example", "safari");
        assertEquals(201, apns.sendWebPush(page.subscription(), "breaking", new WebPush.Options(vapid, "https://news.example")).status());
        WebPush.Received waiting = apns.webPush(page, Duration.ofSeconds(5));
        assertEquals(List.of("serviceWorker", "breaking", false), List.of(waiting.outcome(), waiting.message(), waiting.shown()));
        @SuppressWarnings("unchecked")
        Map<String, Object> shown = (Map<String, Object>) apns.showWebNotification(page, "Breaking", "Read it first").get("presentation");
        assertEquals(List.of("Breaking", "Read it first"), List.of(shown.get("title"), shown.get("body")));

        // Signed with another key than the subscription's: 403 BadJwtToken, nothing more on the phone.
        WebPush.Result refused = apns.sendWebPush(app.subscription(), "x", new WebPush.Options(WebPush.vapidKeys(), "mailto:ops@shop.example"));
        assertEquals(List.of(403, "BadJwtToken"), List.of(refused.status(), refused.reason()));
        assertEquals(1, apns.webPushes(app, 0, Duration.ZERO).size());
    }

    // Apple Support, "Use a Focus on your iPhone": an app a Focus does not allow is delivered quietly.
    // Apple, "Sending notification requests to APNs": keep connections open across notifications;
    // rapid connection and disconnection is treated as a denial-of-service attack.
    @Test
    void theReportCardJudgesConnectionReuse(ApnsEmulator apns) throws Exception {
        String token = apns.registerDevice(TOPIC);
        for (int n = 0; n < 6; n++) {
            assertEquals(200, apns.push(token, "{\"aps\":{\"alert\":\"hi " + n + "\"}}", Map.of("apns-topic", TOPIC, "apns-push-type", "alert")).status());
        }
        Map<String, Object> report = apns.assertProviderBehaves(null);
        assertEquals("pass", report.get("verdict"));
        apns.reset(false);
        for (int n = 0; n < 6; n++) assertEquals(200, providerPush(apns, token, "{\"aps\":{\"alert\":\"again " + n + "\"}}").statusCode());
        AssertionError failed = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> apns.assertProviderBehaves(null));
        assertTrue(failed.getMessage().contains("connection-reuse: 6 requests over 6 connections"), failed.getMessage());
        assertTrue(failed.getMessage().contains("source: Apple"), failed.getMessage());
        assertEquals("fail", apns.assertProviderBehaves(null, "backoff").get("verdict"));
    }

    /** The exam (serve --provider-exam): a provider's 3rd request meets a 429, journaled as the exam's fault. */
    @Test
    @EmulatorOptions(serve = {"--provider-exam"})
    void theExamThroughServeFlags(ApnsEmulator apns) throws Exception {
        String token = apns.registerDevice(TOPIC);
        List<Integer> statuses = new java.util.ArrayList<>();
        String reason = null;
        for (int n = 0; n < 3; n++) {
            ApnsEmulator.PushResult answer = apns.push(token, "{\"aps\":{\"alert\":\"exam " + n + "\"}}", Map.of("apns-topic", TOPIC, "apns-push-type", "alert"));
            statuses.add(answer.status());
            reason = answer.reason();
        }
        assertEquals(List.of(200, 200, 429), statuses);
        assertEquals("TooManyRequests", reason);
        List<Map<String, Object>> refused = apns.notifications(Map.of("status", "rejected"));
        assertEquals(1, refused.size(), refused.toString());
        assertEquals("exam", ((Map<?, ?>) refused.get(0).get("fault")).get("id"), refused.toString());
        assertEquals(true, apns.providerReport(null).get("exam"));
    }

    @Test
    void aFocusHoldsWhatItDoesNotAllowQuietly(ApnsEmulator apns) throws Exception {
        String token = apns.registerDevice(TOPIC);
        apns.setApp(token, Map.of("authorization", Map.of("status", "authorized", "alert", true, "sound", true)));
        assertEquals("Work", apns.setFocus(token, "Work", List.of(), true).get("active"));
        assertEquals(1, ((Number) apns.focus(token).get("apps")).intValue());
        assertEquals(200, providerPush(apns, token, "{\"aps\":{\"alert\":\"Sale\",\"sound\":\"default\"}}").statusCode());
        Map<?, ?> held = (Map<?, ?>) apns.delivered(token).get(0).get("presentation");
        assertEquals(List.of("focus", true), List.of(held.get("heldBy"), held.get("deliveredQuietly")));
        assertEquals(null, apns.setFocus(token, null, List.of(), true).get("active"));
        providerPush(apns, token, "{\"aps\":{\"alert\":\"Hi\",\"sound\":\"default\"}}");
        Map<?, ?> shown = (Map<?, ?>) apns.delivered(token).get(1).get("presentation");
        assertEquals(java.util.Arrays.asList(null, "default"), java.util.Arrays.asList(shown.get("heldBy"), shown.get("sound")));
    }

    /** Apple, UNNotificationServiceExtension: an alert with mutable-content is shown as the app's extension changed it. */
    @Test
    void aServiceExtensionChangesWhatIsShown(ApnsEmulator apns) throws Exception {
        String token = apns.registerDevice(TOPIC);
        apns.setApp(token, Map.of("authorization", Map.of("status", "authorized", "alert", true)));
        Map<String, Object> app = apns.setServiceExtension(token, "cat > /dev/null; echo '{\"body\": \"decrypted\"}'", null, null);
        assertEquals("30s", ((Map<?, ?>) app.get("serviceExtension")).get("timeout"));
        HttpResponse<String> sent = providerPush(apns, token, "{\"aps\":{\"alert\":\"sealed\",\"mutable-content\":1}}");
        assertEquals(200, sent.statusCode());
        Map<String, Object> shown = apns.presentation(sent.headers().firstValue("apns-unique-id").orElse(""), Duration.ofSeconds(10));
        Map<?, ?> report = (Map<?, ?>) shown.get("serviceExtension");
        assertEquals(List.of("decrypted", "modified", "sealed"),
            List.of(shown.get("body"), report.get("outcome"), ((Map<?, ?>) report.get("original")).get("body")));
        assertEquals(null, apns.setServiceExtension(token, null, null, null).get("serviceExtension"));
    }

    @Test
    void aPushOverHttp2ReachesThePhoneAndRefusalsCarryApnsReasons(ApnsEmulator apns) throws Exception {
        String token = apns.registerDevice(TOPIC);
        apns.setApp(token, Map.of("authorization", Map.of("status", "authorized", "alert", true, "sound", true, "badge", true)));
        HttpResponse<String> sent = providerPush(apns, token, "{\"aps\":{\"alert\":{\"title\":\"Shipped\",\"body\":\"Order 42\"}}}");
        assertEquals(200, sent.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, sent.version());
        Map<String, Object> seen = apns.waitFor(Map.of("token", token, "topic", TOPIC), Duration.ofSeconds(5));
        assertEquals(sent.headers().firstValue("apns-id").orElse(""), seen.get("apnsId"));
        Map<?, ?> shown = (Map<?, ?>) apns.delivered(token).get(0).get("presentation");
        assertEquals(List.of("Shipped", "Order 42", true), List.of(shown.get("title"), shown.get("body"), shown.get("shown")));
        HttpResponse<String> bad = providerPush(apns, "abc", "{\"aps\":{\"alert\":\"x\"}}");
        assertEquals(List.of(400, "BadDeviceToken"), List.of(bad.statusCode(), reason(bad)));
        HttpResponse<String> large = providerPush(apns, token, "{\"aps\":{\"alert\":\"" + "x".repeat(5000) + "\"}}");
        assertEquals(List.of(413, "PayloadTooLarge"), List.of(large.statusCode(), reason(large)));
        List<Map<String, Object>> refused = apns.notifications(Map.of("token", token, "status", "rejected"));
        assertEquals("PayloadTooLarge", refused.get(0).get("reason"));
    }

    @Test
    void faultRulesTheClockAndNearMisses(ApnsEmulator apns) throws Exception {
        String token = apns.registerDevice(TOPIC);
        apns.addFault(Map.of("type", "respond", "reason", "TooManyRequests"), Map.of("topic", TOPIC), 1);
        ApnsEmulator.PushResult throttled = apns.push(token, "{\"aps\":{\"alert\":\"one\"}}", Map.of("apns-topic", TOPIC));
        assertEquals(List.of(429, "TooManyRequests"), List.of(throttled.status(), throttled.reason()));
        assertEquals(200, apns.push(token, "{\"aps\":{\"alert\":\"two\"}}", Map.of("apns-topic", TOPIC)).status());
        assertEquals(90 * 60 * 1000L, apns.advanceClock("90m"));
        AssertionError missed = assertThrows(AssertionError.class,
                () -> apns.waitFor(Map.of("token", token, "topic", "com.example.other"), Duration.ofMillis(300)));
        assertTrue(missed.getMessage().contains("near misses:") && missed.getMessage().contains(TOPIC), missed.getMessage());
    }

    /** Two alerts to a token no device holds (offline): the journal's statuses, oldest first. */
    private static List<Object> twoPushesWhileOffline(ApnsEmulator apns) throws Exception {
        String token = apns.registerDevice(TOPIC);
        for (String text : List.of("first", "second")) {
            assertEquals(200, apns.push(token, "{\"aps\":{\"alert\":\"" + text + "\"}}", Map.of("apns-topic", TOPIC)).status());
        }
        List<Object> statuses = new java.util.ArrayList<>();
        for (Map<String, Object> item : apns.notifications(Map.of("token", token))) statuses.add(0, item.get("status"));
        return statuses;
    }

    /** Apple, "Sending notification requests to APNs": APNs stores only one notification per bundle ID while offline. */
    @Test
    void offlineOnePushIsStoredPerApp(ApnsEmulator apns) throws Exception {
        assertEquals(List.of("replaced", "queued"), twoPushesWhileOffline(apns));
    }

    @Test
    @EmulatorOptions(serve = {"--storage-policy", "all"})
    void storagePolicyAllKeepsEveryPush(ApnsEmulator apns) throws Exception {
        assertEquals(List.of("queued", "queued"), twoPushesWhileOffline(apns));
    }

    /** Issue 51: beyond loopback the emulator makes an admin token; the extension sends it, a bare request is refused. */
    @Test
    @EmulatorOptions(serve = {"--host", "0.0.0.0"})
    void beyondLoopbackTheMadeAdminToken(ApnsEmulator apns) throws Exception {
        assertEquals(43, apns.adminToken().length());
        String token = apns.registerDevice(TOPIC);
        assertEquals(200, providerPush(apns, token, "{\"aps\":{\"alert\":\"beyond\"}}").statusCode());
        apns.waitFor(Map.of("token", token), Duration.ofSeconds(5));
        HttpResponse<String> bare = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + apns.port("admin") + "/api/v1/devices")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, bare.statusCode(), bare.body());
    }

    /** An ES256 JWT signed with a .p8 key. */
    static String providerToken(ApnsEmulator.ProviderKey key) throws Exception {
        String pem = Files.readString(key.p8()).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey privateKey = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        String signed = encoder.encodeToString(("{\"alg\":\"ES256\",\"kid\":\"" + key.keyId() + "\"}").getBytes(StandardCharsets.UTF_8)) + "."
                + encoder.encodeToString(("{\"iss\":\"" + key.teamId() + "\",\"iat\":" + System.currentTimeMillis() / 1000 + "}").getBytes(StandardCharsets.UTF_8));
        Signature signature = Signature.getInstance("SHA256withECDSAinP1363Format");
        signature.initSign(privateKey);
        signature.update(signed.getBytes(StandardCharsets.UTF_8));
        return signed + "." + encoder.encodeToString(signature.sign());
    }

    @Test
    @EmulatorOptions(serve = {"--auth", "strict"})
    void strictWithAKeyFromKeysCreate(ApnsEmulator apns) throws Exception {
        ApnsEmulator.ProviderKey key = apns.createKey("TEAM123456", TOPIC);
        String token = apns.registerDevice(TOPIC);
        assertEquals(200, providerPush(apns, token, "{\"aps\":{\"alert\":\"hi\"}}", "authorization", "bearer " + providerToken(key)).statusCode());
        HttpResponse<String> unsigned = providerPush(apns, token, "{\"aps\":{\"alert\":\"hi\"}}");
        assertEquals(List.of(403, "MissingProviderToken"), List.of(unsigned.statusCode(), reason(unsigned)));
    }

    @Test
    @EmulatorOptions(seed = "src/test/resources/world.json")
    void aSeedStartsItsWorldAndAnExportSeedsTheSame(ApnsEmulator apns) throws Exception {
        String device = "5e".repeat(32);
        Map<String, Object> app = apns.app(device);
        assertEquals(List.of("iphone-java", 7L), List.of(app.get("deviceId"), app.get("badge")));
        Path exported = Files.createTempFile("apns-emulator-world", ".json");
        Files.writeString(exported, Json.write(apns.export()));
        try (ApnsEmulator again = ApnsEmulator.start(new ApnsEmulator.Options(List.of(), exported))) {
            assertEquals(app, again.app(device));
            again.remove();
        } finally {
            Files.delete(exported);
        }
    }

    @Test
    void aFailedTestGetsTheEmulatorsLog() throws Exception {
        StringBuilder reported = new StringBuilder();
        boolean[] failed = {false};
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(FailingScenario.class)).build();
        LauncherFactory.create().execute(request, new TestExecutionListener() {
            @Override
            public void reportingEntryPublished(TestIdentifier test, ReportEntry entry) {
                entry.getKeyValuePairs().forEach((name, value) -> reported.append(name).append(": ").append(value));
            }

            @Override
            public void executionFinished(TestIdentifier test, org.junit.platform.engine.TestExecutionResult result) {
                if (test.isTest()) failed[0] = result.getStatus() == org.junit.platform.engine.TestExecutionResult.Status.FAILED;
            }
        });
        assertTrue(failed[0], "the scenario fails");
        assertTrue(reported.toString().contains("apns-emulator log: ") && reported.toString().contains("HTTP/2 provider API on"), reported.toString());
        assertFalse(ProcessHandle.of(FailingScenario.pid).map(ProcessHandle::isAlive).orElse(false), "stopped after the failure");
        // A failed test keeps its emulator's directory for its log; this one failed on purpose.
        removeDirectory(FailingScenario.directory);
    }

    @Test
    void killingTheRunnerMidTestStopsTheEmulator() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        // The console launcher loads the classes itself: the runner's class path is where they came from.
        String classPath = Path.of(ApnsEmulator.class.getProtectionDomain().getCodeSource().getLocation().toURI()) + ":"
                + Path.of(HangingRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process runner = new ProcessBuilder(java, "-cp", classPath, "apnsemulator.HangingRunner")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line = new java.io.BufferedReader(new java.io.InputStreamReader(runner.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertTrue(line != null && line.trim().matches("[0-9]+ .+"), "the runner said " + line + " (it ends when the emulator cannot start)");
        String[] said = line.trim().split(" ", 2);
        long pid = Long.parseLong(said[0]);
        try {
            assertTrue(running(pid), "the emulator " + pid + " runs");
            runner.destroyForcibly().waitFor();
            // The emulator reads the end of its standard input and shuts down: within 30 s, or the test fails.
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (running(pid) && System.nanoTime() < deadline) Thread.sleep(50);
            assertFalse(running(pid), "the emulator " + pid + " still runs 30 s after its runner was killed");
        } finally {
            // The killed runner could not remove its emulator's directory: the test does.
            removeDirectory(Path.of(said[1]));
        }
    }

    static void removeDirectory(Path directory) throws java.io.IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    /** Whether pid is a live process (a zombie no parent reaps has ended). */
    static boolean running(long pid) throws Exception {
        Path stat = Path.of("/proc/" + pid + "/stat");
        if (!Files.exists(stat)) return false;
        String text;
        try {
            text = Files.readString(stat);
        } catch (java.io.IOException gone) {
            return false;
        }
        return !text.substring(text.lastIndexOf(')') + 1).trim().startsWith("Z");
    }
}
