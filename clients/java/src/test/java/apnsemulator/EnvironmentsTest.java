package apnsemulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Both environments, as Apple runs them (issue 72): a sandbox and a production endpoint, and a
 * token valid at the one its app's build registered with. Apple, "Handling notification responses
 * from APNs": 400 BadDeviceToken, "verify … that the token matches the environment".
 */
@ExtendWith(ApnsEmulatorExtension.class)
class EnvironmentsTest {
    static final String TOPIC = "com.example.javashop";

    @Test
    void eachBuildIsTakenAtItsEndpoint(ApnsEmulator apns) throws Exception {
        String debug = apns.registerDevice(TOPIC);
        String testflight = apns.registerDevice(TOPIC, "production");
        assertNotEquals(apns.sandboxUrl(), apns.productionUrl());
        assertEquals(200, apns.push(debug, "{\"aps\":{\"alert\":\"debug\"}}", Map.of("apns-topic", TOPIC)).status());
        assertEquals(200, apns.push(testflight, "{\"aps\":{\"alert\":\"tf\"}}", Map.of("apns-topic", TOPIC), "production").status());
        List<Map<String, Object>> atProduction = apns.notifications(Map.of("environment", "production"));
        assertEquals(List.of(testflight), atProduction.stream().map(n -> n.get("token")).toList());
        Map<String, Object> check = apns.checkToken(testflight);
        assertEquals("production", check.get("environment"));
        assertEquals("api.push.apple.com", check.get("endpoint"));
        assertThrows(IllegalArgumentException.class, () -> apns.push(debug, "{}", Map.of(), "staging"));
    }

    @Test
    void aProviderConfiguredForProductionIsCaught(ApnsEmulator apns) throws Exception {
        String debug = apns.registerDevice(TOPIC);
        // The provider under test: java.net.http over HTTP/2, its base URL from its production configuration.
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ApnsEmulator.trusting(apns.caPath())).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(apns.productionUrl() + "/3/device/" + debug))
                .header("apns-topic", TOPIC).POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"alert\":\"hi\"}}")).build();
        HttpResponse<String> answer = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(400, answer.statusCode());
        assertEquals("BadDeviceToken", ((Map<?, ?>) Json.parse(answer.body())).get("reason"));
        assertTrue(answer.headers().firstValue("apns-emulator-detail").orElse("").contains("issued to a development build"));
        List<Map<String, Object>> refused = apns.notifications(Map.of("status", "rejected", "environment", "production"));
        assertEquals(1, refused.size());
        assertEquals(debug, refused.get(0).get("token"));
        assertEquals("BadDeviceToken", refused.get(0).get("reason"));
    }
}
