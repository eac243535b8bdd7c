import APNsCore
import APNsTestSupport
import Foundation
import Testing

/// A seed file written by hand (the README's typical app, `docs/seeds/typical-app.yaml`), the
/// `export` command, and seed files refused before anything listens.
@Suite("serve --seed: files written by hand")
struct SeedFileTests {
    static let serve = ServeStartTests()
    static let example = Checkout.root.appendingPathComponent("docs/seeds/typical-app.yaml").path

    @Test("the README's typical app starts with its device, app, power, key, fault rule; apns-emulator export writes it back")
    func typicalApp() async throws {
        let directory = try TemporaryDirectory()
        let ports = directory.appending("ports.json")
        let seeded = try Self.serve.start(
            directory,
            ["--data-dir", directory.appending("data"), "--keys", directory.appending("keys"), "--seed", Self.example],
            portsFile: ports)
        let admin = try #require(try await Self.serve.ports(ports)["admin"] as? Int)
        func get(_ path: String) async throws -> JSONValue? {
            let answer = try await AdminTestClient.request(host: "127.0.0.1", port: admin, method: "GET", path: path, body: nil)
            return JSONValue.parse(answer.body)
        }
        let token = "5d1c2f3e4a5b6c7d8e9f00112233445566778899aabbccddeeff001122334455"
        let app = try #require(try await get("/api/v1/devices/\(token)/app"))
        #expect(app["deviceId"] == .string("iphone-15") && app["appState"] == .string("background"))
        #expect(app["authorization"]?["status"] == .string("authorized"))
        guard case .array(let categories)? = app["categories"], case .object(let types)? = app["activityTypes"] else {
            throw TestClientError.unexpected("no categories or activity types in \(app)")
        }
        #expect(categories.count == 1 && types.keys.sorted() == ["DeliveryAttributes"])
        // iOS 18 with a Live Activity type declared: ActivityKit hands the app a push-to-start token.
        #expect(app["pushToStartToken"]?.string?.count == 64)
        let power = try #require(try await get("/api/v1/devices/\(token)/power"))
        #expect(power["locked"] == .bool(true) && power["lowPowerMode"] == .bool(false))
        guard case .array(let faults)? = try await get("/api/v1/faults") else { throw TestClientError.unexpected("no faults") }
        #expect(faults.count == 1 && faults.first?["action"]?["reason"] == .string("TooManyRequests"))
        #expect(FileManager.default.fileExists(atPath: directory.appending("keys/ABC123DEFG.json")))

        let out = directory.appending("export.json")
        let exported = try await Subprocess.run(
            Subprocess.emulatorExecutable, ["export", "--admin-port", String(admin), "--out", out])
        #expect(exported.status == 0, "\(exported.stdout)\(exported.stderr)")
        let document = try #require(JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out)))))
        guard case .array(let devices)? = document["devices"], case .array(let keys)? = document["keys"] else {
            throw TestClientError.unexpected("no devices or keys in the export")
        }
        #expect(devices.first?["id"] == .string("iphone-15") && keys.first?["keyId"] == .string("ABC123DEFG"))
        _ = Foundation.kill(seeded.pid, SIGTERM)
        #expect(await seeded.wait() == 0)
        try directory.remove()
    }

    @Test("a bad seed stops the start before anything listens, naming the entry and what it must be")
    func refused() async throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, String)] = [
            (#"{"devices": [{"power": {"locked": true}, "apps": []}]}"#, "devices[0].power: needs the device's id"),
            (#"{"devices": [{"focus": {"active": "Work"}, "apps": []}]}"#, "devices[0].focus: needs the device's id"),
            (#"{"devices": [{"id": "p", "focus": {"allowedApps": []}}]}"#, "devices[0].focus: active is the Focus's name"),
            (
                #"{"devices": [{"id": "p", "apps": [{"topic": "a.b", "token": "xyz"}]}]}"#,
                "devices[0].apps[0].token: xyz is not a device token"
            ),
            (
                #"{"devices": [{"id": "p", "apps": [{"topic": "a.b", "settings": {"badge": -1}}]}]}"#,
                "devices[0].apps[0].settings"
            ),
            (
                #"{"channels": [{"id": "abc", "bundleId": "a.b", "storagePolicy": 2}]}"#,
                "channels[0].storagePolicy: is 0 (No Storage) or 1"
            ),
            (#"{"clock": {"offset": "soon"}}"#, "clock.offset: soon is not a duration"),
            (#"{"version": 2}"#, "version: is 1"),
            (#"{"keys": [{"keyId": "K", "teamId": "T"}]}"#, "keys[0]: needs p8"),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let file = directory.appending("bad-\(index).json")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let ports = directory.appending("ports-\(index).json")
            let refused = try Self.serve.start(
                directory, ["--data-dir", directory.appending("data-\(index)"), "--seed", file], portsFile: ports)
            #expect(await refused.wait() != 0)
            let said = refused.lines.joined(separator: "\n")
            #expect(said.contains(expected) && said.contains("--seed \(file)"), "\(text): \(said)")
            #expect(!FileManager.default.fileExists(atPath: ports), "a refused seed never listens")
            #expect(!said.contains("listening") && !said.contains(" API on "), "no listener opened: \(said)")
        }
        try directory.remove()
    }
}
