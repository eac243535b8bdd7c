import APNsAuth
import APNsCore
import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// Seed, save and load (issue 40): `serve --seed FILE` starts from a world, `POST /api/v1/export`
/// and `apns-emulator export` write one, `--export-on-exit` writes it at shutdown; seeding an
/// export starts the same world, every admin read the same.
@Suite("serve --seed and export")
struct SeedExportTests {
    static let app = "com.example.seeded"
    static let serve = ServeStartTests()

    /// A world with something in every section: a device with an app (Live Activity types, so a
    /// push-to-start token, entitlements, background and VoIP settings), a power state and a
    /// Focus, an app registered without a device with a
    /// location, an unregistered token still in the feedback list, a key, a foreign CA, two
    /// fault rules (one deleted before), a moved clock, channels (one deleted) and a bundle
    /// with broadcast turned off.
    static func build(_ emulator: RunningEmulator) async throws -> (tokens: [String], channels: [String], key: TestProviderKey) {
        let key = try TestProviderKey.register(
            in: emulator.emulator.configuration.keysDirectory, keyID: "SEEDKEY123", teamID: "TEAM123456", topics: [Self.app])
        let phone = try await emulator.device("phone-seed")
        let held = try await phone.register(topic: Self.app).hex
        try await phone.close()
        let settings =
            #"{"authorization": {"status": "authorized", "alert": true, "sound": true, "badge": false}, "badge": 4, "iosVersion": "17.2", "categories": [{"identifier": "MSG", "actions": [{"identifier": "REPLY", "title": "Reply", "textInput": {"buttonTitle": "Send", "placeholder": "Message"}}]}], "activityTypes": {"Delivery": {"contentState": {"status": "string"}}}, "language": "fr", "locationAuthorization": "authorizedAlways", "entitlements": ["time-sensitive"], "backgroundPushBudget": 5, "reportsCalls": false, "serviceExtension": {"url": "http://127.0.0.1:9/extension", "timeout": "5s"}}"#
        _ = try await emulator.adminObject("/api/v1/devices/\(held)/app", method: "PUT", body: settings)
        _ = try await emulator.adminObject(
            "/api/v1/devices/\(held)/power", method: "PUT", body: #"{"lowPowerMode": true, "locked": true}"#)
        _ = try await emulator.adminObject(
            "/api/v1/devices/phone-seed/focus", method: "PUT",
            body: #"{"active": "Work", "allowedApps": ["\#(Self.app)"], "filters": {"\#(Self.app)": ["work"]}}"#)
        let loose = try #require(
            try await emulator.adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic": "com.example.loose"}"#, status: 201)["token"] as? String)
        _ = try await emulator.adminObject(
            "/api/v1/devices/\(loose)/app", method: "PUT",
            body: #"{"locationAuthorization": "authorizedWhenInUse", "alertStyle": "alert"}"#)
        _ = try await emulator.adminObject(
            "/api/v1/devices/\(loose)/location", method: "POST", body: #"{"latitude": 48.8566, "longitude": 2.3522}"#)
        let gone = try #require(
            try await emulator.adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic": "com.example.gone"}"#, status: 201)["token"] as? String)
        _ = try await emulator.adminObject("/api/v1/devices/\(gone)/unregister", method: "POST", body: "{}")
        for rule in [
            #"{"match": {"topic": "a"}, "action": "reset"}"#,
            #"{"match": {"topic": "b"}, "action": {"type": "respond", "reason": "TooManyRequests"}, "times": 3}"#,
        ] {
            _ = try await emulator.adminObject("/api/v1/faults", method: "POST", body: rule, status: 201)
        }
        _ = try await emulator.admin("/api/v1/faults/fault-1", method: "DELETE")
        _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "2h"}"#)
        _ = try await emulator.admin("/api/v1/apps/com.example.quiet/broadcast", method: "PUT", body: #"{"enabled": false}"#)
        let client = try await HTTP2TestClient.connect(host: "127.0.0.1", port: emulator.channelsPort, caPath: emulator.caPath)
        var channels: [String] = []
        for policy in ["1", "0"] {
            let created = try await BroadcastTests.create(client, policy: policy, bundle: Self.app)
            channels.append(try #require(created.header("apns-channel-id")))
        }
        let deleted = try await client.send(
            method: "DELETE", path: "/1/apps/\(Self.app)/channels", headers: [("apns-channel-id", channels[1])])
        #expect(deleted.status == 204)
        try await client.close()
        return ([held, loose, gone], channels, key)
    }

    /// Every admin read of the world: devices, each token's app and power, faults, feedback,
    /// channels, and the clock's offset.
    static func reads(admin port: Int, tokens: [String], channels: [String]) async throws -> [String: JSONValue] {
        var paths = [
            "/api/v1/devices", "/api/v1/faults", "/api/v1/feedback", "/api/v1/channels", "/api/v1/devices/phone-seed/focus",
        ]
        for token in tokens { paths += ["/api/v1/devices/\(token)/app", "/api/v1/devices/\(token)/power"] }
        paths += channels.map { "/api/v1/channels/\($0)" }
        var reads: [String: JSONValue] = [:]
        for path in paths {
            let answer = try await AdminTestClient.request(host: "127.0.0.1", port: port, method: "GET", path: path, body: nil)
            reads[path] = .object(["status": .number(Double(answer.status)), "body": JSONValue.parse(answer.body) ?? .null])
        }
        let clock = try await AdminTestClient.request(
            host: "127.0.0.1", port: port, method: "GET", path: "/api/v1/clock", body: nil)
        reads["clock offset"] = JSONValue.parse(clock.body)?["offsetMs"]
        return reads
    }

    /// An export without its time of writing, to compare two.
    static func timeless(_ bytes: [UInt8]) throws -> JSONValue {
        guard case .object(var members)? = JSONValue.parse(bytes) else { throw TestClientError.unexpected("not a JSON object") }
        members["exportedAt"] = nil
        return .object(members)
    }
}

extension SeedExportTests {
    @Test(
        "export then serve --seed: every admin read of the two worlds is the same, the seeded key and CA are accepted under --auth strict, and --export-on-exit writes the same world"
    )
    func roundTrip() async throws {
        let elsewhere = try TemporaryDirectory()
        try DevelopmentCertificates.generate(into: elsewhere.appending("ca"))
        try await withEmulator(configure: { $0.providerCAPaths = [elsewhere.appending("ca/ca.pem")] }) { emulator in
            let (tokens, channels, key) = try await Self.build(emulator)
            let exported = try await emulator.admin("/api/v1/export", method: "POST", body: "")
            #expect(exported.status == 200)
            let before = try await Self.reads(admin: emulator.adminPort, tokens: tokens, channels: channels)
            let directory = try TemporaryDirectory()
            let seed = directory.appending("world.json")
            try Data(exported.body).write(to: URL(fileURLWithPath: seed))
            let ports = directory.appending("ports.json")
            let seeded = try Self.serve.start(
                directory,
                [
                    "--data-dir", directory.appending("data"), "--keys", directory.appending("keys"), "--auth", "strict",
                    "--seed", seed, "--export-on-exit", directory.appending("exit.json"),
                ], portsFile: ports)
            let found = try await Self.serve.ports(ports)
            let admin = try #require(found["admin"] as? Int)
            let after = try await Self.reads(admin: admin, tokens: tokens, channels: channels)
            // Not an empty world: the device's token, its push-to-start token, the loose and the gone one.
            guard case .array(let devices)? = before["/api/v1/devices"]?["body"] else {
                throw TestClientError.unexpected("no devices")
            }
            #expect(devices.count == 4 && before.count == 14 && after.count == 14)
            #expect(before["/api/v1/devices/phone-seed/focus"]?["body"]?["active"] == .string("Work"))
            for path in before.keys.sorted() { #expect(before[path] == after[path], "\(path)") }
            let again = try await AdminTestClient.request(
                host: "127.0.0.1", port: admin, method: "POST", path: "/api/v1/export", body: "")
            #expect(try Self.timeless(exported.body) == (try Self.timeless(again.body)))

            try await Self.accepted(http2: try #require(found["http2"] as? Int), directory, elsewhere, key, token: tokens[0])
            _ = Foundation.kill(seeded.pid, SIGTERM)
            #expect(await seeded.wait() == 0)
            let atExit = try #require(FileManager.default.contents(atPath: directory.appending("exit.json")))
            #expect(try Self.timeless(Array(atExit)) == (try Self.timeless(exported.body)))
            try directory.remove()
        }
        try elsewhere.remove()
    }

    /// Under --auth strict, a push signed with the seeded key and one over a certificate from
    /// the seeded CA are both accepted (the key's private half stays with the provider: the
    /// export carries the public one).
    static func accepted(
        http2 port: Int, _ directory: TemporaryDirectory, _ elsewhere: TemporaryDirectory, _ seeded: TestProviderKey,
        token: String
    ) async throws {
        let other = try TestProviderKey.register(in: elsewhere.appending("keys"), keyID: "OTHERKEY12", teamID: "TEAM123456")
        let client = try await HTTP2TestClient.connect(host: "127.0.0.1", port: port, caPath: directory.appending("certs/ca.pem"))
        // The seeded clock runs two hours ahead: a token is signed at its time.
        let now = Int64(Date().timeIntervalSince1970) + 7200
        let signed = try await client.push(token: token, topic: Self.app, authorization: try seeded.authorization(issuedAt: now))
        #expect(signed.status == 200, "\(signed.status) \(signed.reason ?? "")")
        let unknown = try await client.push(token: token, topic: Self.app, authorization: try other.authorization(issuedAt: now))
        #expect(unknown.status == 403 && unknown.reason == "InvalidProviderToken", "a key the seed did not carry is refused")
        try await client.close()
        let foreign = try ClientIdentity.mint(
            signedBy: elsewhere.appending("ca"), into: elsewhere.appending("client"), uid: Self.app)
        let certified = try await HTTP2TestClient.connect(
            host: "127.0.0.1", port: port, caPath: directory.appending("certs/ca.pem"), identity: foreign)
        #expect(try await certified.push(token: token, topic: Self.app).status == 200)
        try await certified.close()
    }
}
