import APNsCore
import APNsDeviceClient
import Foundation

extension TestEmulator {
    // MARK: What was pushed

    /// The first notification matching, waiting up to `timeout` for it; a ``TestEmulatorError``
    /// listing the near misses (what arrived instead, and why each did not match) when none comes.
    public func waitFor(
        token: String? = nil, topic: String? = nil, status: String? = nil, timeout: Duration = .seconds(5)
    ) async throws -> ReceivedNotification {
        var query = Self.query(token: token, topic: topic, status: status)
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        query.append("timeout=\(milliseconds)ms")
        let answer = try await self.admin("/api/v1/notifications/wait?" + query.joined(separator: "&"))
        let body = try answer.json() as? [String: Any] ?? [:]
        if answer.status == 200 { return ReceivedNotification(body) }
        let misses = (body["nearMisses"] as? [[String: Any]] ?? []).map { miss in
            "\(miss["id"] as? String ?? "?"): \(miss["status"] as? String ?? "?") to \(miss["topic"] as? String ?? "?"): "
                + (miss["failed"] as? [String] ?? []).joined(separator: "; ")
        }
        throw TestEmulatorError(message: body["error"] as? String ?? "wait: \(answer.status) \(answer.text)", nearMisses: misses)
    }

    /// The journal, newest first; `environment` keeps what was sent to that endpoint.
    public func notifications(
        token: String? = nil, topic: String? = nil, status: String? = nil, environment: APNsEnvironment? = nil
    ) async throws -> [ReceivedNotification] {
        var query = Self.query(token: token, topic: topic, status: status)
        if let environment { query.append("environment=\(environment.rawValue)") }
        let answer = try await self.admin("/api/v1/notifications?" + query.joined(separator: "&"))
        guard answer.status == 200, let page = try answer.json() as? [String: Any] else {
            throw TestEmulatorError(message: "notifications: \(answer.status) \(answer.text)")
        }
        return (page["items"] as? [[String: Any]] ?? []).map(ReceivedNotification.init)
    }

    // MARK: Devices, faults, clock

    /// A token issued for `topic`, as a device registering for remote notifications gets: to a
    /// build of `environment` (development, a debug build from Xcode; production for TestFlight
    /// and the App Store), whose endpoint alone takes it; nil for the emulator's `environment`
    /// (development unless configured otherwise).
    public func registerDevice(topic: String, environment: APNsEnvironment? = nil) async throws -> String {
        let named = environment.map { #", "environment": "\#($0.rawValue)""# } ?? ""
        let body = #"{"topic": \#(Self.quoted(topic))\#(named)}"#
        let answer = try await self.admin("/api/v1/devices", method: "POST", body: body)
        guard answer.status == 201, let token = (try answer.json() as? [String: Any])?["token"] as? String else {
            throw TestEmulatorError(message: "register: \(answer.status) \(answer.text)")
        }
        return token
    }

    /// The Push Notifications Console's token validation: whether the emulator knows `token`, the
    /// environment of the build that registered it and the endpoint it is valid at, its app, device,
    /// and whether it is still registered; `verdict` says it in a sentence.
    public func checkToken(_ token: String) async throws -> TokenCheck {
        let answer = try await self.admin("/api/v1/tokens/\(token)")
        guard answer.status == 200, let body = try answer.json() as? [String: Any] else {
            throw TestEmulatorError(message: "token check: \(answer.status) \(answer.text)")
        }
        return TokenCheck(
            known: body["known"] as? Bool ?? false, registered: body["registered"] as? Bool ?? false,
            environment: (body["environment"] as? String).flatMap(APNsEnvironment.init(rawValue:)),
            endpoint: body["endpoint"] as? String, topic: body["topic"] as? String, deviceID: body["deviceId"] as? String,
            verdict: body["verdict"] as? String ?? "")
    }

    /// An emulated device connected over TLS: register tokens, receive, acknowledge, respond.
    public func connectDevice(id: String = "device-\(UUID().uuidString.prefix(8))") async throws -> DeviceClient {
        try await DeviceClient.connect(
            host: self.host, port: self.devicePort, caPath: self.caPath, deviceID: id, adminToken: self.adminToken)
    }

    /// Turns a Focus on for the device `deviceID` (`active` nil ends it), for every app it has and
    /// those it installs later: what the Focus does not allow (`allowedApps`, bundle ids) is
    /// delivered quietly, held by `focus`; time-sensitive notifications break through while
    /// `timeSensitive` is on, critical alerts always.
    public func setFocus(
        deviceID: String, active: String?, allowedApps: [String] = [], timeSensitive: Bool = true
    )
        async throws
    {
        let apps = allowedApps.map(Self.quoted).joined(separator: ", ")
        let body =
            #"{"active": \#(active.map(Self.quoted) ?? "null"), "allowedApps": [\#(apps)], "timeSensitive": \#(timeSensitive)}"#
        let path = "/api/v1/devices/\(deviceID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? deviceID)/focus"
        let answer = try await self.admin(path, method: "PUT", body: body)
        guard answer.status == 200 else { throw TestEmulatorError(message: "focus: \(answer.status) \(answer.text)") }
    }

    /// A fault rule: the next `times` pushes matching (`["topic": ...]`, `token`, `pushType`) are
    /// answered with `reason` (its status, as APNs gives it). Returns the rule's id.
    @discardableResult
    public func failPushes(matching match: [String: String] = [:], with reason: String, times: Int? = nil) async throws -> String
    {
        let matchJSON = match.map { "\(Self.quoted($0.key)): \(Self.quoted($0.value))" }.joined(separator: ", ")
        let body =
            #"{"match": {\#(matchJSON)}, "action": {"type": "respond", "reason": \#(Self.quoted(reason))}\#(times.map { #", "times": \#($0)"# } ?? "")}"#
        let answer = try await self.admin("/api/v1/faults", method: "POST", body: body)
        guard answer.status == 201, let id = (try answer.json() as? [String: Any])?["id"] as? String else {
            throw TestEmulatorError(message: "fault: \(answer.status) \(answer.text)")
        }
        return id
    }

    /// Moves the emulator's clock forward (`"90m"`, `"2h"`): what expires is expired at once.
    public func advanceClock(_ by: String) async throws {
        let answer = try await self.admin("/api/v1/clock", method: "POST", body: #"{"advance": \#(Self.quoted(by))}"#)
        guard answer.status == 200 else { throw TestEmulatorError(message: "clock: \(answer.status) \(answer.text)") }
    }

    /// Empties queues and journal, removes fault rules, returns the clock to real time.
    public func reset(devices: Bool = false) async throws {
        let answer = try await self.admin("/api/v1/reset", method: "POST", body: #"{"devices": \#(devices)}"#)
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
