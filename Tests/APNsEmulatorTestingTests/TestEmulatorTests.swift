import APNsCore
import APNsEmulatorTesting
import APNsServer
import Foundation
import Testing
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// TestEmulator as a server app's test uses it, from Swift Testing.
@Suite("TestEmulator (Swift Testing)")
struct TestEmulatorTests {
    static let topic = "com.example.orders"

    @Test("start, push as a provider over HTTP/2, waitFor what was pushed, shut down")
    func pushAndWait() async throws {
        let emulator = try await TestEmulator.start(auth: .none)
        #expect(emulator.providerURL == "https://localhost:\(emulator.http2Port)")
        #expect(emulator.caPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let token = try await emulator.registerDevice(topic: Self.topic)
        let answer = try await emulator.push(
            token: token, topic: Self.topic, payload: ##"{"aps":{"alert":{"title":"Order shipped","body":"#42"}}}"##)
        #expect(answer.isAccepted && answer.uniqueID != nil)
        let sent = try await emulator.waitFor(token: token, topic: Self.topic)
        #expect(sent.alertTitle == "Order shipped" && sent.alertBody == "#42" && sent.uniqueID == answer.uniqueID)
        #expect(try await emulator.notifications(token: token).count == 1)
        // Its keys and store are in a directory only this user reads, removed at shutdown.
        let mode = try FileManager.default.attributesOfItem(atPath: emulator.directory)[.posixPermissions] as? Int
        #expect(mode == 0o700, "the directory's mode: \(String(mode ?? 0, radix: 8))")
        try await emulator.shutdown()
        #expect(emulator.hasStopped && !FileManager.default.fileExists(atPath: emulator.directory))
    }

    /// A token the admin API issued, its app authorized for alerts and sounds, with a request of
    /// the test's own (as a user of the library would make one).
    static func authorizedDevice(_ emulator: TestEmulator) async throws -> String {
        let token = try await emulator.registerDevice(topic: Self.topic)
        var settings = URLRequest(url: try #require(URL(string: "\(emulator.adminURL)/api/v1/devices/\(token)/app")))
        settings.httpMethod = "PUT"
        settings.httpBody = Data(#"{"authorization": {"status": "authorized", "alert": true, "sound": true}}"#.utf8)
        #expect((try await URLSession.shared.data(for: settings).1 as? HTTPURLResponse)?.statusCode == 200)
        return token
    }

    @Test("setFocus: a Focus that does not allow the app holds its alert quietly in Notification Center")
    func focus() async throws {
        let emulator = try await TestEmulator.start(auth: .none)
        // A token the admin API issued is its own device, `token:<hex>`; with settings, the phone
        // presents each push to it as it is accepted.
        let token = try await Self.authorizedDevice(emulator)
        try await emulator.setFocus(deviceID: "token:\(token)", active: "Sleep")
        let answer = try await emulator.push(
            token: token, topic: Self.topic, payload: #"{"aps":{"alert":"Shipped","sound":"default"}}"#)
        #expect(answer.isAccepted)
        let url = try #require(URL(string: "\(emulator.adminURL)/api/v1/devices/\(token)/delivered"))
        let delivered = try JSONSerialization.jsonObject(with: try await URLSession.shared.data(from: url).0) as? [String: Any]
        let presentation = (delivered?["items"] as? [[String: Any]])?.first?["presentation"] as? [String: Any]
        #expect(presentation?["heldBy"] as? String == "focus" && presentation?["deliveredQuietly"] as? Bool == true)
        try await emulator.shutdown()
    }

    @Test("setServiceExtension: the app's extension changes what is shown, and presentation(of:) waits for it")
    func serviceExtension() async throws {
        // Apple, UNNotificationServiceExtension: an alert with mutable-content is handed to the
        // app's extension, and the content it hands back is shown.
        let emulator = try await TestEmulator.start(auth: .none)
        let token = try await Self.authorizedDevice(emulator)
        try await emulator.setServiceExtension(token: token, command: #"cat > /dev/null; echo '{"body": "decrypted"}'"#)
        let answer = try await emulator.push(
            token: token, topic: Self.topic, payload: #"{"aps":{"alert":"sealed","mutable-content":1}}"#)
        let presentation = try await emulator.presentation(of: try #require(answer.uniqueID))
        #expect(presentation.body == "decrypted" && presentation.serviceExtension?.outcome == .modified)
        #expect(presentation.serviceExtension?.original.body == "sealed")
        try await emulator.shutdown()
    }

    @Test(
        "issue 51: with an admin token (given, or made when bound beyond loopback) TestEmulator sends it itself; a request of one's own needs it"
    )
    func adminToken() async throws {
        for configure in [
            { (c: inout EmulatorConfiguration) in c.adminToken = "swift-fixture-token-123" }, { $0.host = "0.0.0.0" },
        ] {
            let emulator = try await TestEmulator.start(configure: configure)
            let adminToken = try #require(emulator.adminToken)
            let token = try await emulator.registerDevice(topic: Self.topic)
            #expect(try await emulator.push(token: token, topic: Self.topic).isAccepted)
            #expect(try await emulator.waitFor(token: token).uniqueID != nil)
            let url = try #require(URL(string: emulator.adminURL + "/api/v1/devices"))
            var request = URLRequest(url: url)
            let (_, refused) = try await URLSession.shared.data(for: request)
            #expect((refused as? HTTPURLResponse)?.statusCode == 401)
            request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization")
            let (_, admitted) = try await URLSession.shared.data(for: request)
            #expect((admitted as? HTTPURLResponse)?.statusCode == 200)
            try await emulator.shutdown()
        }
    }

    @Test("start(seed:) starts with the README's typical app; its export seeds the same world")
    func seeded() async throws {
        let typicalApp = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/seeds/typical-app.yaml").path
        let emulator = try await TestEmulator.start(seed: typicalApp)
        let token = "5d1c2f3e4a5b6c7d8e9f00112233445566778899aabbccddeeff001122334455"
        let answer = try await emulator.push(token: token, topic: "com.example.shop", payload: #"{"aps":{"alert":"Shipped"}}"#)
        #expect(answer.isAccepted)
        let world = try emulator.export()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString).json").path
        try Data(world.prettyPrinted).write(to: URL(fileURLWithPath: file))
        let again = try await TestEmulator.start(seed: file)
        var exported = try again.export()
        if case .object(var members) = exported, case .object(let first) = world {
            members["exportedAt"] = first["exportedAt"]
            exported = .object(members)
        }
        #expect(exported == world)
        try await again.shutdown()
        try await emulator.shutdown()
        try FileManager.default.removeItem(atPath: file)
    }

    @Test("a wait that times out throws with the near misses; faults, the clock and reset")
    func nearMissesFaultsClock() async throws {
        let emulator = try await TestEmulator.start()
        let token = try await emulator.registerDevice(topic: Self.topic)
        _ = try await emulator.push(token: token, topic: Self.topic)
        do {
            _ = try await emulator.waitFor(token: token, topic: "com.example.other", timeout: .milliseconds(300))
            Issue.record("the wait should have timed out")
        } catch let error as TestEmulatorError {
            #expect(error.nearMisses.count == 1 && error.description.contains("topic: wanted com.example.other"), "\(error)")
        }
        try await emulator.failPushes(matching: ["topic": Self.topic], with: "TooManyRequests", times: 1)
        #expect(try await emulator.push(token: token, topic: Self.topic).reason == "TooManyRequests")
        #expect(try await emulator.push(token: token, topic: Self.topic).isAccepted)
        let expiring = try await emulator.push(
            token: token, topic: Self.topic, headers: [("apns-expiration", String(Int(Date().timeIntervalSince1970) + 60))])
        try await emulator.advanceClock("2m")
        #expect(try await emulator.waitFor(token: token, status: "expired").uniqueID == expiring.uniqueID)
        try await emulator.reset()
        #expect(try await emulator.notifications().isEmpty)
        try await emulator.shutdown()
    }

    @Test(
        "strict authentication: a token signed with createKey's key is accepted, none is MissingProviderToken; a connected device receives the push"
    )
    func strictAndDevice() async throws {
        let emulator = try await TestEmulator.start(auth: .strict)
        let key = try emulator.createKey(topics: [Self.topic])
        #expect(key.p8.contains("BEGIN PRIVATE KEY") && key.keyID == "KEY1234567")
        let device = try await emulator.connectDevice()
        let token = try await device.register(topic: Self.topic).hex
        #expect(try await emulator.push(token: token, topic: Self.topic).reason == "MissingProviderToken")
        let signed = try await emulator.push(
            token: token, topic: Self.topic, payload: #"{"aps":{"alert":"signed"}}"#,
            headers: [("authorization", try key.authorization())])
        #expect(signed.isAccepted, "\(signed)")
        var received = device.notifications.makeAsyncIterator()
        #expect(try await received.next()?.uniqueID == signed.uniqueID)
        try await device.close()
        try await emulator.shutdown()
    }
}
