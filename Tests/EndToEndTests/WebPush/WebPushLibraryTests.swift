import APNsTestSupport
import Foundation
import Testing

/// PyPI's `webpush` library (1.0.6), unchanged, as its README uses it: it signs its VAPID JWT for
/// the endpoint's scheme and host without the port (right against Apple, whose endpoints have
/// none) and sends TTL 0 unless told otherwise. Issue 52: both used to end in a 201 and nothing on
/// the phone, or a 403. RFC 8292 section 2 (aud is the origin); RFC 8030 section 5.2 (TTL 0:
/// deliver now or never); Apple, "Sending web push notifications in web apps and browsers".
@Suite("Web Push: a library that builds aud without the port, unchanged")
struct WebPushLibraryTests {
    @Test("webpush 1.0.6 with its defaults: 201 with the vapid-audience-without-port warning, and the message shown")
    func portlessAudienceAndTTLZero() async throws {
        let probe = try await Subprocess.run(WebPushTests.python, ["-c", "import webpush, requests"])
        try #require(probe.status == 0, "webpush is missing: python3 -m pip install webpush==1.0.6 (\(probe.stderr))")
        try await withEmulator { emulator in
            let app = try await WebPushTests.subscribe(emulator)
            let answer = try await WebPushTests.client(
                emulator, ["webpushlib", app.key, app.subscription, WebPushTests.declarative, "ops@app.example"])
            #expect(answer["ttl"] as? String == "0", "the library's default, as sent")
            #expect(answer["status"] as? Int == 201, "\(answer)")
            #expect((answer["warning"] as? String)?.hasPrefix("vapid-audience-without-port: ") == true, "\(answer)")
            let uniqueID = try #require(answer["uniqueId"] as? String)
            let entry = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect(entry["status"] as? String == "delivered", "\(entry)")
            let presentation = try #require(entry["presentation"] as? [String: Any], "\(entry)")
            #expect(presentation["shown"] as? Bool == true && presentation["title"] as? String == "Order shipped")
            #expect((presentation["webPush"] as? [String: Any])?["vapidSubject"] as? String == "mailto:ops@app.example")
        }
    }
}
