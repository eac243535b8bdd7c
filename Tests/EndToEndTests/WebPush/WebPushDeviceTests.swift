import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// Web apps subscribed over the device protocol (`web-app`, version 2): their pushes are the
/// device's, handed over its connection like any notification and stored while it is offline
/// (TTL as expiration; RFC 8030 §5.2, the push service keeps a message until its TTL).
@Suite("Web Push to a connected device")
struct WebPushDeviceTests {
    @Test("a device's web app gets its pushes over the device connection, stored while it is offline")
    func storeAndForward() async throws {
        try await withEmulator { emulator in
            let probe = try await Subprocess.run(WebPushTests.python, ["-c", "import pywebpush"])
            try #require(probe.status == 0, "pywebpush is missing (\(probe.stderr))")
            let device = try await emulator.device("mac")
            let key = emulator.directory.appending("vapid.pem")
            let serverKey = try #require(
                try await WebPushTests.client(emulator, ["keygen", key])["applicationServerKey"] as? String)
            let answer = try await device.subscribeWebApp(
                origin: "https://mail.example", applicationServerKey: serverKey, kind: "safari")
            let made = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
            let token = try #require(made["token"] as? String)
            let subscription = emulator.directory.appending("subscription.json")
            try JSONSerialization.data(withJSONObject: try #require(made["subscription"])).write(
                to: URL(fileURLWithPath: subscription))
            var app = WebPushTests.WebApp(document: made, key: key, subscription: subscription, host: "")
            app.document["token"] = token

            // Subscribing again with the same key gives the same subscription back.
            let again = try await device.subscribeWebApp(
                origin: "https://mail.example", applicationServerKey: serverKey, kind: "safari")
            #expect(again.contains(#""token":"\#(token)""#))

            let live = try await WebPushTests.push(emulator, app, WebPushTests.declarative)
            #expect(live["status"] as? Int == 201)
            let first = try await device.next()
            #expect(first.token.hex == token && first.uniqueID == live["uniqueId"] as? String && first.source == .webPush)
            try await device.acknowledge(first.uniqueID)

            _ = try await device.setPower(online: false)
            let replaced = try await WebPushTests.push(emulator, app, "score 1-0", ["3600", "low", "score"])
            let stored = try await WebPushTests.push(emulator, app, "while away", ["3600", "low", "score"])
            #expect(replaced["status"] as? Int == 201 && stored["status"] as? Int == 201)
            let queued = try await emulator.queued(token)
            #expect(queued.count == 1, "stored while the device is offline; RFC 8030 section 5.4: the second replaces the first")
            #expect(queued.first?["priority"] as? Int == 5, "Urgency low is priority 5")
            _ = try await device.setPower(online: true)
            let later = try await device.next()
            #expect(later.uniqueID == stored["uniqueId"] as? String)
            let entry = try await emulator.adminObject("/api/v1/notifications/\(later.uniqueID)")
            let web = try #require((entry["presentation"] as? [String: Any])?["webPush"] as? [String: Any])
            #expect(web["outcome"] as? String == "serviceWorker" && web["message"] as? String == "while away")

            let listed = try await device.webApp("list")
            #expect(listed.contains(token))
            let shown = try await device.webApp("show", document: #"{"id": "\#(app.id)", "title": "New mail"}"#)
            #expect(shown.contains(#""title":"New mail""#))
            let gone = try await device.webApp("unsubscribe", document: #"{"id": "\#(app.id)"}"#)
            #expect(gone.contains(#""subscribed":false"#))
            #expect(try await WebPushTests.push(emulator, app, "x")["status"] as? Int == 410)
        }
    }
}
