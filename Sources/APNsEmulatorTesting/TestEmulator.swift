import APNsAuth
import APNsCore
import APNsDeviceClient
import APNsProviderClient
import APNsServer
import APNsTestSupport
import Foundation

/// An apns-emulator running in the test's own process, on free ports with a throw-away store,
/// certificates and keys: the APNs your server under test pushes to. Works from Swift Testing and
/// XCTest alike (everything is `async`); call ``shutdown()`` at the end.
///
/// ```swift
/// let emulator = try await TestEmulator.start(auth: .none)
/// // configure your APNs client (APNSwift, ...) with emulator.providerURL and emulator.caPEM
/// let token = try await emulator.registerDevice(topic: "com.example.app")
/// try await myServer.notifyOrderShipped(deviceToken: token)
/// let sent = try await emulator.waitFor(token: token, topic: "com.example.app")
/// #expect(sent.alertTitle == "Order shipped")
/// try await emulator.shutdown()
/// ```
public final class TestEmulator: Sendable {
    /// How providers authenticate: `none` takes any provider, `strict` wants a certificate or a
    /// provider token as APNs does (``createKey(teamID:topics:)`` makes a key it trusts).
    public enum Auth: Sendable {
        case none
        case strict
    }

    let running: RunningEmulator

    /// The address every listener is on.
    public let host = "127.0.0.1"
    public var http2Port: Int { self.running.http2Port }
    public var adminPort: Int { self.running.adminPort }
    public var devicePort: Int { self.running.devicePort }
    /// The provider API's base URL (the server certificate names `localhost` and `127.0.0.1`).
    public var providerURL: String { "https://localhost:\(self.http2Port)" }
    /// The admin API's base URL (inspection, faults, clock; also the web inbox).
    public var adminURL: String { "http://\(self.host):\(self.adminPort)" }
    /// The admin token the admin API asks for, nil when it asks for none: set one with
    /// `configure: { $0.adminToken = ... }`, or bind beyond loopback (`$0.host = "0.0.0.0"`) and
    /// the emulator makes one. This type sends it itself; a request of your own to ``adminURL``
    /// sends it as `Authorization: Bearer <token>`.
    public var adminToken: String? { self.emulator.configuration.adminToken }
    /// The development CA the server certificate chains to: trust it in the client under test.
    public var caPath: String { self.running.caPath }
    public var caPEM: String { (try? String(contentsOfFile: self.caPath, encoding: .utf8)) ?? "" }
    /// The emulator itself, for what this type does not wrap.
    public var emulator: Emulator { self.running.emulator }

    private init(running: RunningEmulator) {
        self.running = running
    }

    /// Starts an emulator on port 0 with an ephemeral store. `seed` is a seed file (JSON or YAML,
    /// `docs/seed.schema.json`) whose world it starts with; `configure` may change any setting.
    public static func start(
        auth: Auth = .none, seed: String? = nil, configure: (inout EmulatorConfiguration) -> Void = { _ in }
    ) async throws -> TestEmulator {
        let document = try seed.map { try SeedDocument.read($0, option: "seed") }
        let running = try await RunningEmulator.start(seed: document) { configuration in
            configuration.auth = auth == .strict ? .strict : .none
            configure(&configuration)
        }
        return TestEmulator(running: running)
    }

    /// Stops it gracefully and removes its files.
    public func shutdown() async throws {
        try await self.running.stop()
        try? self.running.directory.remove()
    }

    /// The world as a seed document: `start(seed:)` of it, written to a file, starts the same world.
    public func export() throws -> JSONValue { try self.emulator.export() }

    // MARK: As a provider

    /// Sends a push over HTTP/2 and TLS to the provider API, as a provider does; APNs' answer.
    public func push(
        token: String, topic: String? = nil, payload: String = #"{"aps":{"alert":"hello"}}"#, pushType: String? = nil,
        priority: Int? = nil,
        headers: [(String, String)] = []
    ) async throws -> PushAnswer {
        var sent: [(String, String)] = []
        if let topic { sent.append(("apns-topic", topic)) }
        if let pushType { sent.append(("apns-push-type", pushType)) }
        if let priority { sent.append(("apns-priority", String(priority))) }
        let client = try await ProviderClient.connect(
            host: self.host, port: self.http2Port, trust: .certificates(Array(self.caPEM.utf8)))
        defer { Task { try? await client.close() } }
        let answer = try await client.push(ProviderPush(token: token, headers: sent + headers, payload: Array(payload.utf8)))
        return PushAnswer(
            status: answer.status, reason: answer.error.reason, apnsID: answer.header("apns-id"),
            uniqueID: answer.header("apns-unique-id"),
            detail: answer.header("apns-emulator-detail"))
    }

    /// A provider-token key the emulator trusts at once (for `.strict`): its `.p8` PEM, key id and
    /// team id, as a provider library takes them.
    public func createKey(
        keyID: String = "KEY1234567", teamID: String = "TEAM123456", topics: [String] = []
    ) throws -> ProviderSigningKey {
        let key = try self.running.registerKey(keyID: keyID, teamID: teamID, topics: topics)
        return ProviderSigningKey(keyID: key.keyID, teamID: key.teamID, p8: key.p8)
    }

    // MARK: What was pushed

    /// The first notification matching, waiting up to `timeout` for it; a ``TestEmulatorError``
    /// listing the near misses (what arrived instead, and why each did not match) when none comes.
    public func waitFor(
        token: String? = nil, topic: String? = nil, status: String? = nil, timeout: Duration = .seconds(5)
    ) async throws -> ReceivedNotification {
        var query = Self.query(token: token, topic: topic, status: status)
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        query.append("timeout=\(milliseconds)ms")
        let answer = try await self.running.admin("/api/v1/notifications/wait?" + query.joined(separator: "&"))
        let body = try answer.json() as? [String: Any] ?? [:]
        if answer.status == 200 { return ReceivedNotification(body) }
        let misses = (body["nearMisses"] as? [[String: Any]] ?? []).map { miss in
            "\(miss["id"] as? String ?? "?"): \(miss["status"] as? String ?? "?") to \(miss["topic"] as? String ?? "?"): "
                + (miss["failed"] as? [String] ?? []).joined(separator: "; ")
        }
        throw TestEmulatorError(message: body["error"] as? String ?? "wait: \(answer.status) \(answer.text)", nearMisses: misses)
    }

    /// The journal, newest first.
    public func notifications(
        token: String? = nil, topic: String? = nil, status: String? = nil
    ) async throws -> [ReceivedNotification] {
        let answer = try await self.running.admin(
            "/api/v1/notifications?" + Self.query(token: token, topic: topic, status: status).joined(separator: "&"))
        guard answer.status == 200, let page = try answer.json() as? [String: Any] else {
            throw TestEmulatorError(message: "notifications: \(answer.status) \(answer.text)")
        }
        return (page["items"] as? [[String: Any]] ?? []).map(ReceivedNotification.init)
    }

    // MARK: Devices, faults, clock

    /// A token issued for `topic`, as a device registering for remote notifications gets.
    public func registerDevice(topic: String) async throws -> String {
        let answer = try await self.running.admin("/api/v1/devices", method: "POST", body: #"{"topic": \#(Self.quoted(topic))}"#)
        guard answer.status == 201, let token = (try answer.json() as? [String: Any])?["token"] as? String else {
            throw TestEmulatorError(message: "register: \(answer.status) \(answer.text)")
        }
        return token
    }

    /// An emulated device connected over TLS: register tokens, receive, acknowledge, respond.
    public func connectDevice(id: String = "device-\(UUID().uuidString.prefix(8))") async throws -> DeviceClient {
        try await DeviceClient.connect(
            host: self.host, port: self.devicePort, caPath: self.caPath, deviceID: id, adminToken: self.adminToken)
    }

    /// A fault rule: the next `times` pushes matching (`["topic": ...]`, `token`, `pushType`) are
    /// answered with `reason` (its status, as APNs gives it). Returns the rule's id.
    @discardableResult
    public func failPushes(matching match: [String: String] = [:], with reason: String, times: Int? = nil) async throws -> String
    {
        let matchJSON = match.map { "\(Self.quoted($0.key)): \(Self.quoted($0.value))" }.joined(separator: ", ")
        let body =
            #"{"match": {\#(matchJSON)}, "action": {"type": "respond", "reason": \#(Self.quoted(reason))}\#(times.map { #", "times": \#($0)"# } ?? "")}"#
        let answer = try await self.running.admin("/api/v1/faults", method: "POST", body: body)
        guard answer.status == 201, let id = (try answer.json() as? [String: Any])?["id"] as? String else {
            throw TestEmulatorError(message: "fault: \(answer.status) \(answer.text)")
        }
        return id
    }

    /// Moves the emulator's clock forward (`"90m"`, `"2h"`): what expires is expired at once.
    public func advanceClock(_ by: String) async throws {
        let answer = try await self.running.admin("/api/v1/clock", method: "POST", body: #"{"advance": \#(Self.quoted(by))}"#)
        guard answer.status == 200 else { throw TestEmulatorError(message: "clock: \(answer.status) \(answer.text)") }
    }

    /// Empties queues and journal, removes fault rules, returns the clock to real time.
    public func reset(devices: Bool = false) async throws {
        let answer = try await self.running.admin("/api/v1/reset", method: "POST", body: #"{"devices": \#(devices)}"#)
        guard answer.status == 200 else { throw TestEmulatorError(message: "reset: \(answer.status) \(answer.text)") }
    }

    static func query(token: String?, topic: String?, status: String?) -> [String] {
        [("token", token), ("topic", topic), ("status", status)].compactMap { name, value in
            value.map { "\(name)=\($0.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? $0)" }
        }
    }

    static func quoted(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"\""
    }
}
