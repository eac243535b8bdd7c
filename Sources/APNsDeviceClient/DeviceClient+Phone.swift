import APNsDevice
import APNsWire
import Foundation

/// Version 2: the apps on this device ask for authorization and change their settings; the
/// person holding the phone responds to notifications.
extension DeviceClient {
    /// The app asks to alert, sound and badge (and critical alerts, or provisionally). The first
    /// time, the emulated user answers with `userAllows`; later, the saved answer comes back and
    /// `userAllows` is not used. `.provisional` is granted without asking; an app provisionally
    /// authorized that asks without it is asked for real.
    public func requestAuthorization(
        topic: String, options: Authorization.Options, userAllows: Bool
    ) async throws -> Authorization.Answer {
        let reply = try await self.request(
            .authorize(topic: topic, options: options.rawValue, allow: userAllows), expecting: .authorization, subject: topic)
        guard case .authorization(_, let status, let bits, let granted, let prompted) = reply else {
            throw DeviceClientError.unexpectedReply(reply)
        }
        let allowed = Authorization.Options(rawValue: bits)
        // The statuses in `UNAuthorizationStatus`'s order: 3 is provisional.
        let statuses: [Authorization.Status] = [.notDetermined, .denied, .authorized, .provisional]
        let authorization = Authorization(
            status: statuses[Int(min(status, 3))], alert: allowed.contains(.alert), sound: allowed.contains(.sound),
            badge: allowed.contains(.badge), criticalAlert: allowed.contains(.criticalAlert)
        )
        return Authorization.Answer(authorization: authorization, granted: granted, prompted: prompted)
    }

    /// The app changes its own settings: `document` is a JSON object with any of `categories`,
    /// `appState`, `foregroundOptions`, `language`, `timeZone`, `strings`, `sounds`, `badge` (as
    /// the admin API's app document; language and time zone are the whole device's). Returns the
    /// app afterwards.
    public func configure(topic: String, document: [UInt8]) async throws -> AppModel {
        let reply = try await self.request(.configure(topic: topic, document: document), expecting: .app, subject: topic)
        guard case .app(_, let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return try JSONDecoder().decode(AppModel.self, from: Data(body))
    }

    /// Registers the app's categories (replacing any it had).
    public func setCategories(topic: String, _ categories: [NotificationCategory]) async throws -> AppModel {
        let document = try JSONEncoder().encode(["categories": categories])
        return try await self.configure(topic: topic, document: Array(document))
    }

    /// Moves the app to the foreground or background (or ends it).
    public func setAppState(topic: String, _ state: AppState) async throws -> AppModel {
        try await self.configure(topic: topic, document: Array(#"{"appState": "\#(state.rawValue)"}"#.utf8))
    }

    /// The person holding the phone changes its time zone (an IANA name such as
    /// `Europe/Paris`): floating calendar requests of every app on it follow; fixed-zone ones keep
    /// their instant.
    public func setTimeZone(topic: String, _ identifier: String) async throws -> AppModel {
        try await self.configure(topic: topic, document: Array(#"{"timeZone": \#(Self.quoted(identifier))}"#.utf8))
    }

    private static func quoted(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"\""
    }

    /// The person holding the phone responds to a notification on screen: `default` (a tap),
    /// `dismiss`, or an action's identifier, with `text` for a text-input action. `context` nil is
    /// the one it was shown in. Throws ``DeviceClientError/declined(status:message:)`` (409) when
    /// that action is not offered there.
    public func respond(
        to uniqueID: String, action: String, text: String? = nil, context: ActionContext? = nil
    ) async throws -> UserResponse {
        let code: UInt8 =
            switch context {
            case nil: 0
            case .banner: 1
            case .alert: 2
            }
        let reply = try await self.request(
            .respond(uniqueID: uniqueID, action: action, text: text, context: code), expecting: .response, subject: uniqueID)
        guard case .response(_, let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return try JSONDecoder().decode(UserResponse.self, from: Data(body))
    }

    /// The app schedules a local notification (`UNUserNotificationCenter.add`): one with the same
    /// identifier is replaced. Throws ``DeviceClientError/declined(status:message:)`` with 400
    /// for a bad request, 409 when the app holds no token on this device (register first).
    public func schedule(topic: String, _ document: ScheduleDocument) async throws -> ScheduledRequest {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try await self.schedule(topic: topic, document: Array(try encoder.encode(document)))
    }

    /// Schedules a request given as JSON (`{"identifier", "content", "trigger"}`, as the admin
    /// API's `POST .../pending` takes it).
    public func schedule(topic: String, document: [UInt8]) async throws -> ScheduledRequest {
        let reply = try await self.request(.schedule(topic: topic, document: document), expecting: .scheduled, subject: topic)
        guard case .scheduled(_, let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return try JSONDecoder().decode(ScheduledRequest.self, from: Data(body))
    }

    /// The app's pending local notifications, soonest first.
    public func pendingRequests(topic: String) async throws -> [LocalNotificationRequest] {
        let reply = try await self.request(.listPending(topic: topic), expecting: .pending, subject: topic)
        guard case .pending(_, let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return try JSONDecoder().decode(PendingRequests.self, from: Data(body)).items
    }

    /// Cancels one pending request by identifier (404 when there is none), or all of them (nil);
    /// what they put in Notification Center goes too. Returns how many pending requests went.
    @discardableResult
    public func cancelPending(topic: String, identifier: String?) async throws -> Int {
        let reply = try await self.request(.cancel(topic: topic, identifier: identifier), expecting: .cancelled, subject: topic)
        guard case .cancelled(_, let removed) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return Int(removed)
    }

    /// Version 4: the app's service extension hands back the content to show for `uniqueID`
    /// (asked with ``DeviceEvent/extend(uniqueID:_:)``); `presented` follows once the phone has
    /// shown it. `content` is JSON as a command extension prints it: `title`, `subtitle`, `body`,
    /// `userInfo`, `categoryIdentifier`, `threadIdentifier`, `attachments`; what it leaves out
    /// stays as it arrived.
    public func extended(_ uniqueID: String, content: [UInt8]) async throws {
        try await self.channel.writeAndFlush(
            DeviceClientMessage.extended(uniqueID: uniqueID, document: content).frame(allocator: self.channel.allocator))
    }
}
