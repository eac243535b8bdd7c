import APNsAuth
import APNsCore
import APNsServer
import Crypto
import Foundation
import Yams

/// `serve --config FILE` (JSON or YAML): what the emulator starts with.
///
/// ```yaml
/// keys:                 # provider-token keys (the key store learns their public halves)
///   - keyId: ABC123DEFG
///     teamId: ABCDE12345
///     p8: creds/AuthKey_ABC123DEFG.p8
///     topics: [com.example.app]      # optional: a topic-specific key, as keys create --topics
///     environment: sandbox           # optional: sandbox, production or both (the default)
/// devices:              # tokens, as POST /api/v1/devices; app: as PUT /api/v1/devices/<token>/app
///   - topic: com.example.app
///     token: abab…                   # optional: a new one is made
///     app: {authorization: {status: authorized, alert: true, sound: true, badge: true}}
/// faults:               # rules, as POST /api/v1/faults
///   - match: {topic: com.example.flaky}
///     action: {type: respond, reason: TooManyRequests}
/// ```
struct ConfigFile {
    var keys: [ProviderKey] = []
    var devices: [[String: Any]] = []
    var faults: [Any] = []
    let path: String

    static let sections: Set<String> = ["keys", "devices", "faults"]

    init(path: String) throws {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigFileError("--config: cannot read \(path) (looked in \(FileManager.default.currentDirectoryPath))")
        }
        let text = String(decoding: data, as: UTF8.self)
        let parsed: Any?
        do {
            // YAML is a superset of JSON: one parser reads both.
            parsed = try Yams.load(yaml: text)
        } catch {
            throw ConfigFileError("--config \(path) is not JSON or YAML: \(error)")
        }
        guard let root = parsed as? [String: Any] else {
            throw ConfigFileError("--config \(path) must be a mapping with any of keys, devices, faults")
        }
        if let unknown = root.keys.filter({ !Self.sections.contains($0) }).sorted().first {
            throw ConfigFileError("--config \(path): unknown section \(unknown) (it takes keys, devices, faults)")
        }
        self.devices = try Self.list(root["devices"], "devices", in: path).enumerated().map { index, item in
            guard let device = item as? [String: Any] else {
                throw ConfigFileError("--config \(path): devices[\(index)] must be a mapping with topic, token, app")
            }
            return device
        }
        self.faults = try Self.list(root["faults"], "faults", in: path)
        self.keys = try Self.list(root["keys"], "keys", in: path).enumerated().map { index, item in
            try Self.key(item, "keys[\(index)]", in: path)
        }
    }

    private static func list(_ value: Any?, _ name: String, in path: String) throws -> [Any] {
        guard let value else { return [] }
        guard let list = value as? [Any] else { throw ConfigFileError("--config \(path): \(name) must be a list") }
        return list
    }

    private static func key(_ item: Any, _ origin: String, in path: String) throws -> ProviderKey {
        guard let fields = item as? [String: Any] else {
            throw ConfigFileError("--config \(path): \(origin) must be a mapping with keyId, teamId, p8")
        }
        if let unknown = fields.keys.filter({ !["keyId", "teamId", "p8", "topics", "environment"].contains($0) }).sorted().first {
            throw ConfigFileError("--config \(path): \(origin) has no field \(unknown) (keyId, teamId, p8, topics, environment)")
        }
        guard let keyID = fields["keyId"] as? String, let teamID = fields["teamId"] as? String, let p8 = fields["p8"] as? String
        else {
            throw ConfigFileError("--config \(path): \(origin) needs keyId, teamId and p8 (the .p8 file's path)")
        }
        // A relative p8 path is relative to the config file.
        let keyPath =
            p8.hasPrefix("/") ? p8 : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(p8)
        let privateKey: P256.Signing.PrivateKey
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: keyPath, encoding: .utf8))
        } catch {
            throw ConfigFileError("--config \(path): \(origin).p8: \(keyPath) is not a readable P-256 key in PEM: \(error)")
        }
        // Apple's words for a key's environment: sandbox, production, or both.
        var environment: APNsEnvironment?
        if let value = fields["environment"] {
            guard let name = value as? String, let parsed = KeyEnvironment(rawValue: name) else {
                throw ConfigFileError(
                    "--config \(path): \(origin).environment is sandbox, production or both (development is taken for sandbox)")
            }
            environment = parsed.environment
        }
        let topics: [String]
        switch fields["topics"] {
        case nil: topics = []
        case let list as [String] where !list.contains(where: \.isEmpty): topics = list
        default: throw ConfigFileError("--config \(path): \(origin).topics is a list of bundle ids, e.g. [com.example.app]")
        }
        return ProviderKey(
            keyID: keyID, teamID: teamID, publicKey: privateKey.publicKey, topics: topics, environment: environment)
    }

    /// Registers the keys in the key store (before the emulator starts).
    func registerKeys(in directory: String) throws {
        for key in self.keys { try ProviderKeyStore.register(key, in: directory) }
    }

    /// Registers the devices (and their apps) and adds the fault rules, through the admin API's routes.
    func seed(_ emulator: Emulator) async throws {
        for (index, device) in self.devices.enumerated() {
            let origin = "--config \(self.path): devices[\(index)]"
            var registration = device
            let app = registration.removeValue(forKey: "app")
            let registered = try await emulator.seed([
                Emulator.SeedRequest(
                    method: "POST", path: "/api/v1/devices", body: try Self.json(registration, origin), origin: origin,
                    alsoFine: device["token"] == nil ? nil : 409)
            ])
            guard let app else { continue }
            let token =
                (device["token"] as? String)
                ?? registered.first.flatMap { JSONValue.member("token", ofObjectIn: $0)?.string }
            guard let token else { continue }
            try await emulator.seed([
                Emulator.SeedRequest(
                    method: "PUT", path: "/api/v1/devices/\(token)/app", body: try Self.json(app, origin + ".app"),
                    origin: origin + ".app")
            ])
        }
        let faults = try self.faults.enumerated().map { index, rule in
            let origin = "--config \(self.path): faults[\(index)]"
            return Emulator.SeedRequest(method: "POST", path: "/api/v1/faults", body: try Self.json(rule, origin), origin: origin)
        }
        try await emulator.seed(faults)
    }

    private static func json(_ value: Any, _ origin: String) throws -> [UInt8] {
        guard value is [String: Any], let text = JSONValue.text(ofFoundation: value) else {
            throw ConfigFileError("\(origin) must be a mapping")
        }
        return text
    }
}
